package dev.wordstats.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import com.github.dockerjava.api.model.Volume;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.EventType;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * The deployment, for real: the service image built from deploy/Dockerfile with the jar the
 * build just made, configured by deploy/application.yml; a real Prometheus configured by
 * deploy/prometheus.yml scraping it; every Grafana panel expression (variables substituted)
 * returning data from that Prometheus after a little load. Grafana itself is not started (no
 * image of it can be had without a registry): the dashboards are proven at the query level.
 * The service records JDK Flight Recorder as deploy/docker-compose.jfr.yml makes it, and the
 * recording it writes when it stops holds the lock waits of the configured lock.
 *
 * <p>Images: {@code WORDSTATS_BASE_IMAGE} / {@code WORDSTATS_PROMETHEUS_IMAGE} when set, else the
 * local images of deploy/local-images.sh when present, else the public ones
 * ({@code eclipse-temurin:25-jre}, {@code prom/prometheus}). Ports are published on 127.0.0.1 only.
 * Without Docker the class is skipped loudly, or fails under CI (see {@link DockerRequirement}).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DeployStackTest {

    /** The lock type of deploy/application.yml (DeployFilesTest checks the file says so). */
    static final String CONFIGURED_LOCK = "NUMA_MONITOR";
    /** The package of the locks, whose frames the JFR lock events leave out: their top frame is the caller. */
    private static final String LOCK_PACKAGE = "dev.wordstats.numa.lock.";

    private static final String SWITCHED_LOCK = "FAIR_REENTRANT";
    private static final String[] VOCABULARY = ("numa lock stripe carrier virtual thread queue node handoff "
                    + "spin park wait hold fair unfair word count")
            .split(" ");

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final long LOAD_MILLIS = Long.getLong("wordstats.deploy.loadMillis", 12_000);
    private static final long JFR_LOAD_MILLIS = Long.getLong("wordstats.deploy.jfrLoadMillis", 4_000);

    /** At most this many loads before the dashboard queries, until a slow-path wait was sampled. */
    private static final int MAX_LOADS = 3;

    // Names of numa-locks' lock events (its LockEvents), which the recording is read for.
    private static final String LOCK_WAIT = "dev.wordstats.LockWait";
    private static final String LOCK_RESERVATION = "dev.wordstats.LockReservation";
    /** The LockWait threshold of wordstats-locks.jfc, the settings the image carries. */
    private static final Duration WAIT_THRESHOLD = Duration.ofNanos(10_000);

    /** The counts' volume (the image's /data), shared by the service containers of this test. */
    private static final String DATA_VOLUME = "wordstats-deploy-test-" + java.util.UUID.randomUUID();

    private static Network network;
    private static ImageFromDockerfile serviceImage;
    private static GenericContainer<?> service;
    private static GenericContainer<?> prometheus;
    /** The counts the service held when a test stopped it (the JFR test, else the lock switch). */
    private static Counts countsAtStop;
    /** The recording the JFR test read, in /data, or null. */
    private static String recordingAtStop;

    @BeforeAll
    static void startStack() throws IOException {
        DockerRequirement.requireDockerOrSkip("DeployStackTest (service image, Prometheus scrape, dashboard queries)");
        Path jar = Path.of(System.getProperty("wordstats.service.jar", "../service/target/service.jar"))
                .toAbsolutePath()
                .normalize();
        assertThat(jar)
                .as("the service jar (build it with ./mvnw -B -ntp -pl service -am package)")
                .isRegularFile();

        String base = image("WORDSTATS_BASE_IMAGE", "wordstats/jre:25-local", "eclipse-temurin:25-jre");
        String prometheusImage =
                image("WORDSTATS_PROMETHEUS_IMAGE", "wordstats/prometheus:local", "prom/prometheus:v3.4.0");
        System.err.printf(
                "DeployStackTest: service on %s, Prometheus %s, jar %s (%d bytes)%n",
                base, prometheusImage, jar, Files.size(jar));

        network = Network.newNetwork();
        serviceImage = new ImageFromDockerfile("wordstats/service-test", true)
                .withFileFromPath("Dockerfile", DashboardQueries.deployDir().resolve("Dockerfile"))
                .withFileFromPath("service.jar", jar)
                .withFileFromPath(
                        "wordstats-locks.jfc",
                        DashboardQueries.deployDir()
                                .resolve("../numa-locks/src/main/resources/wordstats-locks.jfc")
                                .normalize())
                .withBuildArg("JFC", "wordstats-locks.jfc")
                .withBuildArg("BASE_IMAGE", base)
                .withBuildArg("JAR", "service.jar");
        service = serviceContainer(null);
        phase("building the service image and starting it");
        service.start();
        phase("service healthy; starting Prometheus");

        prometheus = new GenericContainer<>(DockerImageName.parse(prometheusImage))
                .withNetwork(network)
                .withCopyFileToContainer(
                        MountableFile.forHostPath(DashboardQueries.deployDir().resolve("prometheus.yml"), 0644),
                        "/etc/prometheus/prometheus.yml")
                .withCommand("--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus")
                .withExposedPorts(9090)
                .withCreateContainerCmdModifier(cmd -> loopbackOnly(cmd.getHostConfig(), 9090))
                .waitingFor(Wait.forHttp("/-/ready").forStatusCode(200).withStartupTimeout(Duration.ofMinutes(1)));
        prometheus.start();
        phase("Prometheus ready");
    }

    @AfterAll
    static void stopStack() {
        if (prometheus != null) {
            prometheus.stop();
        }
        if (service != null) {
            service.stop();
        }
        if (network != null) {
            network.close();
        }
        try {
            DockerClientFactory.instance().client().removeVolumeCmd(DATA_VOLUME).exec();
        } catch (RuntimeException e) {
            System.err.println("DeployStackTest: could not remove the volume " + DATA_VOLUME + ": " + e);
        }
        if (serviceImage != null) {
            try { // Ryuk is off here (no registry for its image), so remove the test image ourselves.
                DockerClientFactory.instance()
                        .client()
                        .removeImageCmd(serviceImage.get())
                        .withForce(true)
                        .exec();
            } catch (RuntimeException e) {
                System.err.println("DeployStackTest: could not remove the test image: " + e);
            }
        }
    }

    @Test
    @Order(1)
    void serviceImageIsHealthyAndCountsWordsWithTheConfiguredLock() throws Exception {
        assertThat(DockerClientFactory.instance()
                        .client()
                        .inspectContainerCmd(service.getContainerId())
                        .exec()
                        .getState()
                        .getHealth()
                        .getStatus())
                .as("the image's HEALTHCHECK")
                .isEqualTo("healthy");
        assertThat(get(serviceUrl("/actuator/health")).body()).contains("\"status\":\"UP\"");

        HttpResponse<String> posted = post(serviceUrl("/api/texts"), "text/plain", "Deploy deploy DEPLOY, don't stop");
        assertThat(posted.statusCode()).isEqualTo(200);
        assertThat(posted.body()).contains("\"words\":5");
        assertThat(get(serviceUrl("/api/words/deploy")).body()).contains("\"count\":3");

        JsonNode stats =
                DashboardQueries.JSON.readTree(get(serviceUrl("/api/stats")).body());
        assertThat(stats.path("lockType").asText())
                .as("lock from the mounted application.yml")
                .isEqualTo(CONFIGURED_LOCK);
        assertThat(stats.path("threadKind").asText()).isEqualTo("virtual");
    }

    @Test
    @Order(2)
    void prometheusScrapesTheServiceTarget() {
        awaitTrue("Prometheus target wordstats up", Duration.ofSeconds(60), () -> {
            JsonNode targets = prometheusApi("/api/v1/targets").path("data").path("activeTargets");
            for (JsonNode target : targets) {
                if ("wordstats".equals(target.path("labels").path("job").asText())
                        && "up".equals(target.path("health").asText())) {
                    return true;
                }
            }
            return false;
        });
        assertThat(instantQuery("up{job=\"wordstats\"}")
                        .get(0)
                        .path("value")
                        .get(1)
                        .asText())
                .isEqualTo("1");
    }

    @Test
    @Order(3)
    void everyDashboardQueryReturnsDataUnderLoad() throws Exception {
        // The slow-path panels need a contended acquisition that the timers sampled (one in eight), which a
        // slow host may not give in one load: a bounded number of loads, until Prometheus has one.
        for (int load = 1; ; load++) {
            phase("load " + load + " for " + LOAD_MILLIS + " ms");
            long words = drive(LOAD_MILLIS);
            assertThat(words).isPositive();
            phase("load done: " + words + " words sent");
            long counted = DashboardQueries.JSON
                    .readTree(get(serviceUrl("/api/stats")).body())
                    .path("wordsCounted")
                    .asLong();
            // Wait for a scrape that saw all of it, so every rate window holds the load.
            awaitTrue("Prometheus sees " + counted + " words counted", Duration.ofSeconds(30), () -> {
                List<JsonNode> result = instantQuery("max(wordstats_words_counted_total)");
                return !result.isEmpty() && result.get(0).path("value").get(1).asDouble() >= counted;
            });
            if (load == MAX_LOADS || slowWaitsSampled()) {
                break;
            }
            phase("no slow-path lock wait sampled in the last minute yet");
        }

        JsonNode lockValues = prometheusApi("/api/v1/label/lock/values?match[]="
                + URLEncoder.encode("wordstats_lock_acquisitions_total", StandardCharsets.UTF_8));
        assertThat(lockValues.path("data").toString())
                .as("the $lock variable's values")
                .contains(CONFIGURED_LOCK);

        phase("Prometheus has the load; running the dashboard queries");
        List<DashboardQueries.Query> queries = DashboardQueries.all();
        assertThat(queries).hasSizeGreaterThan(10);
        List<String> failures = new ArrayList<>();
        for (DashboardQueries.Query query : queries) {
            String expr = query.substituted(CONFIGURED_LOCK, "1m");
            List<JsonNode> result = instantQuery(expr);
            boolean anyNumber = result.stream()
                    .anyMatch(s -> isFinite(s.path("value").get(1).asText()));
            if (result.isEmpty() || !anyNumber) {
                failures.add(query + "\n    sent: " + expr + "\n    got: " + result);
            }
        }
        phase(queries.size() - failures.size() + " of " + queries.size() + " dashboard queries returned data");
        assertThat(failures).as("dashboard queries that returned no data").isEmpty();
    }

    /**
     * The service has recorded JFR since its JVM started, with the flag of deploy/docker-compose.jfr.yml
     * (default settings plus the image's /app/wordstats-locks.jfc, the file
     * /data/wordstats-&lt;start time&gt;.jfr written when the JVM stops). Under contended load, then a
     * graceful stop, that file holds lock waits of the configured lock with every field, read here
     * with {@link RecordingFile} after copying it out of the stopped container.
     */
    @Test
    @Order(4)
    void lockWaitsOfTheConfiguredLockAreInTheRecordingTheServiceWritesWhenItStops() throws Exception {
        ExecResult listed = service.execInContainer("bash", "-c", "ls /data/wordstats-*.jfr");
        assertThat(listed.getExitCode())
                .as("the recording's file, made at the JVM's start: " + listed)
                .isZero();
        List<String> files = listed.getStdout().lines().toList();
        assertThat(files).as("one recording, this JVM's").hasSize(1);
        String file = files.get(0);
        int nodes = DashboardQueries.JSON
                .readTree(get(serviceUrl("/api/stats")).body())
                .path("nodes")
                .asInt();
        assertThat(nodes).isPositive();

        phase("contended load for " + JFR_LOAD_MILLIS + " ms, recording to " + file);
        Instant loadStart = Instant.now();
        assertThat(drive(JFR_LOAD_MILLIS)).isPositive();
        dumpWithJcmdWhereTheImageHasIt();
        countsAtStop = stopGracefully();
        Path recording = Files.createTempFile("wordstats-deploy-", ".jfr");
        try {
            service.copyFileFromContainer(file, recording.toString());
            recordingAtStop = file;
            List<RecordedEvent> events = RecordingFile.readAllEvents(recording);
            List<RecordedEvent> waits = named(events, LOCK_WAIT);
            List<RecordedEvent> reservations = named(events, LOCK_RESERVATION);
            long inThisLoad = waits.stream()
                    .filter(e -> e.getStartTime().isAfter(loadStart))
                    .count();
            phase("the stopped service's recording, " + Files.size(recording) + " bytes: " + waits.size() + " "
                    + LOCK_WAIT + waitTimes(waits) + ", " + inThisLoad + " of them in this test's load (host clock), "
                    + reservations.size() + " " + LOCK_RESERVATION);

            assertThat(waits).as(LOCK_WAIT + " events under contended load").isNotEmpty();
            assertThat(activeSettings(events, LOCK_WAIT, "threshold"))
                    .as("the threshold of the image's wordstats-locks.jfc")
                    .contains("10 us");
            assertThat(named(events, "jdk.JVMInformation"))
                    .as("the JDK's default settings are on too")
                    .isNotEmpty();
            assertThat(waits).allSatisfy(wait -> {
                assertThat(wait.getString("lockType")).isEqualTo(CONFIGURED_LOCK);
                assertThat(wait.getLong("lockId")).isNotNegative();
                assertThat(wait.getInt("node")).isBetween(0, nodes - 1);
                assertThat(wait.getString("handoff")).isIn("same_node", "cross_node", "unknown");
                assertThat(wait.getDuration()).as("the event is the wait").isGreaterThanOrEqualTo(WAIT_THRESHOLD);
                List<RecordedFrame> frames = wait.getStackTrace().getFrames();
                assertThat(frames).as("the waiting call's stack").isNotEmpty();
                assertThat(frames.getFirst().getMethod().getType().getName())
                        .as("the top frame is the lock's caller")
                        .doesNotStartWith(LOCK_PACKAGE);
                assertThat(frames)
                        .as("the waiting call's stack, from the store's stripes")
                        .anyMatch(frame -> frame.getMethod().getType().getName().endsWith(".StripedCounts"));
            });
            assertThat(reservations).allSatisfy(reservation -> {
                assertThat(reservation.getString("lockType")).isEqualTo(CONFIGURED_LOCK);
                assertThat(reservation.getInt("node")).isBetween(0, nodes - 1);
            });
        } finally {
            Files.deleteIfExists(recording);
        }
    }

    @Test
    @Order(5)
    void lockSwitchedByEnvironmentShowsUpUnderItsOwnLabelAndKeepsTheCounts() throws Exception {
        if (countsAtStop == null) { // the JFR test did not stop it
            countsAtStop = stopGracefully();
        }
        String top = countsAtStop.top();
        long total = countsAtStop.totalWords();
        assertThat(total).as("counts before the restart").isPositive();
        service.stop();
        LOG_LINES.set(0);
        service = serviceContainer(SWITCHED_LOCK);
        phase("restarting the service with WORDSTATS_LOCK_TYPE=" + SWITCHED_LOCK);
        service.start();
        phase("service healthy");
        JsonNode stats =
                DashboardQueries.JSON.readTree(get(serviceUrl("/api/stats")).body());
        assertThat(stats.path("lockType").asText())
                .as("WORDSTATS_LOCK_TYPE wins over application.yml")
                .isEqualTo(SWITCHED_LOCK);
        assertThat(stats.path("totalWords").asLong())
                .as("the counts outlive the container")
                .isEqualTo(total);
        assertThat(get(serviceUrl("/api/words/top?limit=1000")).body()).isEqualTo(top);
        if (recordingAtStop != null) {
            assertThat(service.execInContainer("test", "-s", recordingAtStop).getExitCode())
                    .as("the recording of the run before the switch, kept on the volume: " + recordingAtStop)
                    .isZero();
        }
        drive(3_000);
        awaitTrue(
                "Prometheus shows lock=" + SWITCHED_LOCK,
                Duration.ofSeconds(45),
                () -> !instantQuery("wordstats_lock_acquisitions_total{lock=\"" + SWITCHED_LOCK + "\"}")
                        .isEmpty());
        String p99 = new DashboardQueries.Query(
                        "-", "-", "-", DashboardQueries.all().get(0).expr())
                .substituted(SWITCHED_LOCK, "1m");
        awaitTrue(
                "first panel has data for " + SWITCHED_LOCK,
                Duration.ofSeconds(30),
                () -> !instantQuery(p99).isEmpty());
    }

    // ---- the pieces

    /**
     * The on-demand dump of deploy/README.md, on an image with jcmd (the local runtime image has it,
     * eclipse-temurin's JRE has not): the running JVM writes what it recorded so far.
     */
    private static void dumpWithJcmdWhereTheImageHasIt() throws Exception {
        if (service.execInContainer("bash", "-c", "command -v jcmd").getExitCode() != 0) {
            phase("no jcmd in this image: the on-demand dump is not tried");
            return;
        }
        ExecResult dump =
                service.execInContainer("jcmd", "1", "JFR.dump", "name=wordstats", "filename=/tmp/on-demand.jfr");
        assertThat(dump.getExitCode()).as("jcmd 1 JFR.dump: " + dump).isZero();
        assertThat(service.execInContainer("test", "-s", "/tmp/on-demand.jfr").getExitCode())
                .as("the on-demand dump, " + dump.getStdout())
                .isZero();
        phase("jcmd 1 JFR.dump name=wordstats wrote /tmp/on-demand.jfr in the running container");
    }

    /** The top words and the total, as the service answered just before it stopped. */
    private record Counts(long totalWords, String top) {}

    /**
     * Reads the counts, then stops the service as docker stop does (SIGTERM): the graceful shutdown
     * writes the counts to the volume and the JVM its JFR recording. The container stays, stopped.
     */
    private static Counts stopGracefully() throws Exception {
        String top = get(serviceUrl("/api/words/top?limit=1000")).body();
        long total = DashboardQueries.JSON
                .readTree(get(serviceUrl("/api/stats")).body())
                .path("totalWords")
                .asLong();
        DockerClientFactory.instance()
                .client()
                .stopContainerCmd(service.getContainerId())
                .withTimeout(60)
                .exec();
        return new Counts(total, top);
    }

    /**
     * The JDK_JAVA_OPTIONS of deploy/docker-compose.jfr.yml ({@code -XX:StartFlightRecording:...}), so
     * the test records as a user of that override does.
     */
    private static String recordingFlag() {
        try {
            String override = Files.readString(DashboardQueries.deployDir().resolve("docker-compose.jfr.yml"));
            Matcher flag = Pattern.compile("- JDK_JAVA_OPTIONS=(-XX:StartFlightRecording\\S+)$", Pattern.MULTILINE)
                    .matcher(override);
            assertThat(flag.find())
                    .as("docker-compose.jfr.yml's JDK_JAVA_OPTIONS=-XX:StartFlightRecording...")
                    .isTrue();
            return flag.group(1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        return events.stream()
                .filter(e -> e.getEventType().getName().equals(name))
                .toList();
    }

    /** The values a recording's jdk.ActiveSetting events gave one setting of one event type. */
    private static List<String> activeSettings(List<RecordedEvent> events, String eventName, String setting) {
        List<Long> ids = events.stream()
                .map(RecordedEvent::getEventType)
                .filter(type -> type.getName().equals(eventName))
                .map(EventType::getId)
                .distinct()
                .toList();
        return named(events, "jdk.ActiveSetting").stream()
                .filter(e -> ids.contains(e.getLong("id")) && setting.equals(e.getString("name")))
                .map(e -> e.getString("value"))
                .toList();
    }

    /** " (shortest to longest, median)" of the waits' waitTime, in microseconds; "" for none. */
    private static String waitTimes(List<RecordedEvent> waits) {
        List<Long> nanos = waits.stream()
                .map(e -> e.getDuration("waitTime").toNanos())
                .sorted()
                .toList();
        if (nanos.isEmpty()) {
            return "";
        }
        return String.format(
                Locale.ROOT,
                " (%.1f us to %.1f us, median %.1f us)",
                nanos.getFirst() / 1e3,
                nanos.getLast() / 1e3,
                nanos.get(nanos.size() / 2) / 1e3);
    }

    private static GenericContainer<?> serviceContainer(String lockType) {
        GenericContainer<?> container = new GenericContainer<>(serviceImage)
                .withNetwork(network)
                .withNetworkAliases("service") // the target in deploy/prometheus.yml
                .withCopyFileToContainer(
                        MountableFile.forHostPath(DashboardQueries.deployDir().resolve("application.yml"), 0644),
                        "/app/config/application.yml")
                // The image's flags plus a small heap, so the GC panels see collections.
                .withEnv("JAVA_TOOL_OPTIONS", "-XX:+UseNUMA -Xmx256m -XX:+ExitOnOutOfMemoryError")
                // The JFR recording, as docker-compose.jfr.yml starts it.
                .withEnv("JDK_JAVA_OPTIONS", recordingFlag())
                .withExposedPorts(8080)
                .withCreateContainerCmdModifier(cmd -> {
                    loopbackOnly(cmd.getHostConfig(), 8080);
                    cmd.getHostConfig().withBinds(new Bind(DATA_VOLUME, new Volume("/data")));
                })
                .withLogConsumer(DeployStackTest::startupLog)
                // The image's own HEALTHCHECK (bash /dev/tcp, no curl) decides when it is up.
                .waitingFor(Wait.forHealthcheck().withStartupTimeout(Duration.ofMinutes(3)));
        if (lockType != null) {
            container.withEnv("WORDSTATS_LOCK_TYPE", lockType);
        }
        return container;
    }

    private static final AtomicLong LOG_LINES = new AtomicLong();
    private static final long T0 = System.nanoTime();

    /** Echoes the service's startup (the first lines of each container), not every request's log. */
    private static void startupLog(org.testcontainers.containers.output.OutputFrame frame) {
        if (frame.getType() != org.testcontainers.containers.output.OutputFrame.OutputType.END
                && LOG_LINES.incrementAndGet() <= 40) {
            System.out.print("[service] " + frame.getUtf8String());
        }
    }

    static void phase(String what) {
        System.err.printf("DeployStackTest +%5.1f s: %s%n", (System.nanoTime() - T0) / 1e9, what);
    }

    /** Publishes the port on 127.0.0.1 only (a random host port), never on every interface. */
    private static void loopbackOnly(com.github.dockerjava.api.model.HostConfig hostConfig, int port) {
        hostConfig.withPortBindings(new PortBinding(Ports.Binding.bindIp("127.0.0.1"), ExposedPort.tcp(port)));
    }

    /** The env var's image, else the local image if the engine has it, else the public one. */
    private static String image(String envVar, String local, String pub) {
        String chosen = System.getenv(envVar);
        if (chosen != null && !chosen.isBlank()) {
            return chosen;
        }
        try {
            DockerClientFactory.instance().client().inspectImageCmd(local).exec();
            return local;
        } catch (RuntimeException notThere) {
            return pub;
        }
    }

    /** Whether Prometheus has a slow-path lock wait the service's timers sampled in the last minute. */
    private static boolean slowWaitsSampled() {
        List<JsonNode> result = instantQuery("sum(increase(wordstats_lock_wait_seconds_count{path=\"slow\"}[1m]))");
        return !result.isEmpty() && result.get(0).path("value").get(1).asDouble() > 0;
    }

    /**
     * Bounded load: a few virtual threads post texts and batches for {@code millis}; returns words
     * sent. A request whose keep-alive connection was closed (by the service or the port proxy in
     * front of its container) as it went out fails with an {@link IOException} before any response;
     * it is sent once more, on another connection. Those resends are counted, and the load fails when
     * more than one request in a hundred needed one: a dropped connection now and then is HTTP/1.1's
     * keep-alive race, many would be the service's fault.
     */
    private static long drive(long millis) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        AtomicLong words = new AtomicLong();
        AtomicLong requests = new AtomicLong();
        AtomicLong resent = new AtomicLong();
        badRequests(); // before and after the load, so the error series has samples across the window
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> workers = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                workers.add(pool.submit(() -> {
                    for (int i = 0; i < 20_000 && System.nanoTime() < deadline; i++) {
                        StringBuilder text = new StringBuilder();
                        for (int k = 0; k < 50; k++) {
                            text.append(VOCABULARY[ThreadLocalRandom.current().nextInt(VOCABULARY.length)])
                                    .append(' ');
                        }
                        HttpRequest request;
                        if (i % 10 == 0) {
                            String line = "\"" + text.toString().trim() + "\"";
                            request = postRequest(
                                    serviceUrl("/api/texts/batch"),
                                    "application/json",
                                    "{\"lines\":[" + line + "," + line + "]}");
                            words.addAndGet(100);
                        } else {
                            request = postRequest(serviceUrl("/api/texts"), "text/plain", text.toString());
                            words.addAndGet(50);
                        }
                        assertThat(sendOnceMore(request, requests, resent).statusCode())
                                .isEqualTo(200);
                        if (i % 25 == 0) {
                            sendOnceMore(getRequest(serviceUrl("/api/words/top?limit=5")), requests, resent);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(millis + 60_000, TimeUnit.MILLISECONDS);
            }
        }
        badRequests();
        if (resent.get() > 0) {
            phase(resent.get() + " of " + requests.get() + " requests sent again on another connection");
        }
        assertThat(resent.get())
                .as("requests sent again after their connection closed, of " + requests.get())
                .isLessThanOrEqualTo(requests.get() / 100);
        return words.get();
    }

    /** Sends {@code request}, and once more if it failed before a response came. */
    private static HttpResponse<String> sendOnceMore(HttpRequest request, AtomicLong requests, AtomicLong resent)
            throws IOException, InterruptedException {
        requests.incrementAndGet();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException closedBeforeTheResponse) {
            resent.incrementAndGet();
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        }
    }

    /** A few bad requests: the errors panel needs some (each a 4xx that changes nothing). */
    private static void badRequests() throws IOException, InterruptedException {
        for (int i = 0; i < 3; i++) {
            assertThat(get(serviceUrl("/api/words/top?limit=0")).statusCode()).isBetween(400, 499);
            assertThat(post(serviceUrl("/api/texts"), "application/xml", "<a/>").statusCode())
                    .isBetween(400, 499);
        }
    }

    private static String serviceUrl(String path) {
        return "http://" + service.getHost() + ":" + service.getMappedPort(8080) + path;
    }

    private static JsonNode prometheusApi(String pathAndQuery) {
        try {
            HttpResponse<String> response =
                    get("http://" + prometheus.getHost() + ":" + prometheus.getMappedPort(9090) + pathAndQuery);
            assertThat(response.statusCode())
                    .as(pathAndQuery + " -> " + response.body())
                    .isEqualTo(200);
            return DashboardQueries.JSON.readTree(response.body());
        } catch (IOException | InterruptedException e) {
            throw new AssertionError("Prometheus API " + pathAndQuery, e);
        }
    }

    private static List<JsonNode> instantQuery(String expr) {
        JsonNode answer = prometheusApi("/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8));
        assertThat(answer.path("status").asText()).as(expr).isEqualTo("success");
        List<JsonNode> samples = new ArrayList<>();
        JsonNode result = answer.path("data").path("result");
        if ("scalar".equals(answer.path("data").path("resultType").asText())) {
            samples.add(DashboardQueries.JSON.createObjectNode().set("value", result));
        } else {
            result.forEach(samples::add);
        }
        return samples;
    }

    private static boolean isFinite(String value) {
        try {
            return Double.isFinite(Double.parseDouble(value));
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return HTTP.send(getRequest(url), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String url, String contentType, String body)
            throws IOException, InterruptedException {
        return HTTP.send(postRequest(url, contentType, body), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest getRequest(String url) {
        return HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build();
    }

    private static HttpRequest postRequest(String url, String contentType, String body) {
        return HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    private static void awaitTrue(String what, Duration timeout, BooleanSupplier condition) {
        Awaitility.await(what)
                .atMost(timeout)
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(500))
                .until(condition::getAsBoolean);
    }
}
