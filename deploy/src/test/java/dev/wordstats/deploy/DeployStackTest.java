package dev.wordstats.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import com.github.dockerjava.api.model.Volume;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.DockerClientFactory;
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
 *
 * <p>Images: {@code WORDSTATS_BASE_IMAGE} / {@code WORDSTATS_PROMETHEUS_IMAGE} when set, else the
 * local images of deploy/local-images.sh when present, else the public ones
 * ({@code eclipse-temurin:25-jre}, {@code prom/prometheus}). Ports are published on 127.0.0.1 only.
 * Without Docker the class is skipped loudly, or fails under CI (see {@link DockerRequirement}).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DeployStackTest {

    private static final String CONFIGURED_LOCK = "NUMA_MCS"; // deploy/application.yml
    private static final String SWITCHED_LOCK = "FAIR_REENTRANT";
    private static final String[] VOCABULARY = ("numa lock stripe carrier virtual thread queue node handoff "
                    + "spin park wait hold fair unfair word count")
            .split(" ");

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final long LOAD_MILLIS = Long.getLong("wordstats.deploy.loadMillis", 12_000);

    /** The counts' volume (the image's /data), shared by the service containers of this test. */
    private static final String DATA_VOLUME = "wordstats-deploy-test-" + java.util.UUID.randomUUID();

    private static Network network;
    private static ImageFromDockerfile serviceImage;
    private static GenericContainer<?> service;
    private static GenericContainer<?> prometheus;

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
        phase("load for " + LOAD_MILLIS + " ms");
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

    @Test
    @Order(4)
    void lockSwitchedByEnvironmentShowsUpUnderItsOwnLabelAndKeepsTheCounts() throws Exception {
        String top = get(serviceUrl("/api/words/top?limit=1000")).body();
        long total = DashboardQueries.JSON
                .readTree(get(serviceUrl("/api/stats")).body())
                .path("totalWords")
                .asLong();
        assertThat(total).as("counts before the restart").isPositive();
        // docker stop (SIGTERM): the graceful shutdown writes the counts to the volume.
        DockerClientFactory.instance()
                .client()
                .stopContainerCmd(service.getContainerId())
                .withTimeout(60)
                .exec();
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

    private static GenericContainer<?> serviceContainer(String lockType) {
        GenericContainer<?> container = new GenericContainer<>(serviceImage)
                .withNetwork(network)
                .withNetworkAliases("service") // the target in deploy/prometheus.yml
                .withCopyFileToContainer(
                        MountableFile.forHostPath(DashboardQueries.deployDir().resolve("application.yml"), 0644),
                        "/app/config/application.yml")
                // The image's flags plus a small heap, so the GC panels see collections.
                .withEnv("JAVA_TOOL_OPTIONS", "-XX:+UseNUMA -Xmx256m -XX:+ExitOnOutOfMemoryError")
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

    /** Bounded load: a few virtual threads post texts and batches for {@code millis}; returns words sent. */
    private static long drive(long millis) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        AtomicLong words = new AtomicLong();
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
                        if (i % 10 == 0) {
                            String line = "\"" + text.toString().trim() + "\"";
                            assertThat(post(
                                                    serviceUrl("/api/texts/batch"),
                                                    "application/json",
                                                    "{\"lines\":[" + line + "," + line + "]}")
                                            .statusCode())
                                    .isEqualTo(200);
                            words.addAndGet(100);
                        } else {
                            assertThat(post(serviceUrl("/api/texts"), "text/plain", text.toString())
                                            .statusCode())
                                    .isEqualTo(200);
                            words.addAndGet(50);
                        }
                        if (i % 25 == 0) {
                            get(serviceUrl("/api/words/top?limit=5"));
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
        return words.get();
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
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(10))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String url, String contentType, String body)
            throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(10))
                        .header("Content-Type", contentType)
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void awaitTrue(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for: " + what);
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
