package dev.wordstats.loadtests.compare;

import dev.wordstats.numa.lock.LockType;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Plays one simulation against every lock type in turn: for each, start the service jar with
 * {@code --wordstats.lock.type=TYPE} on a free loopback port, wait for {@code /actuator/health}
 * UP, run the simulation in its own Gatling JVM, scrape {@code /actuator/prometheus} for the lock
 * figures, stop the service; then write {@code report.md} and charts and fail if any run failed.
 * It prints its progress as it goes. The CI smoke is this runner with one lock type and a
 * few seconds of load.
 *
 * <pre>
 * ./mvnw -pl load-tests -am -Pcompare verify -DskipTests -Dsimulation=HighContention -DdurationSeconds=20
 * </pre>
 *
 * Its own parameters (system properties): {@code simulation} (HighContention; a simple name is
 * looked up in dev.wordstats.loadtests), {@code locks} (every {@code LockType}, comma-separated),
 * {@code serviceJar}, {@code comparisonDir}, {@code simulatedNodes} (2: the service splits the
 * CPUs into that many NUMA nodes, so locality shows on a one-node machine; 0 = real topology),
 * {@code tomcatMaxConnections} (12000) and {@code tomcatAcceptCount} (4096) for the service's
 * Tomcat, {@code serviceArgs} (more {@code --name=value} for the service, space separated),
 * {@code serviceJvmArgs}, {@code gatlingJvmArgs}, {@code healthTimeoutSeconds} (180), {@code warmupSeconds}
 * (10: texts posted by the runner before
 * the simulation, so a cold JIT does not decide the figures; the lock figures are the increase
 * from after the warm-up to the end of the run). Every other
 * property without a dot in its name ({@code users}, {@code durationSeconds}, ...) and every
 * {@code gatling.*} property is handed to the simulation.
 */
public final class Compare {

    /** Every lock type, in declaration order: a new type joins the comparison without an edit here. */
    static final String DEFAULT_LOCKS =
            Arrays.stream(LockType.values()).map(Enum::name).collect(Collectors.joining(","));

    private static final Set<String> OWN = Set.of(
            "simulation",
            "locks",
            "serviceJar",
            "comparisonDir",
            "simulatedNodes",
            "serviceArgs",
            "serviceJvmArgs",
            "gatlingJvmArgs",
            "healthTimeoutSeconds",
            "warmupSeconds",
            "baseUrl",
            "tomcatMaxConnections",
            "tomcatAcceptCount",
            "skipTests",
            "skipITs",
            "test",
            "it"); // the last ones are Maven's, not the simulation's

    private Compare() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        String simulation = qualified(System.getProperty("simulation", "HighContention"));
        List<String> locks = split(System.getProperty("locks", DEFAULT_LOCKS), ",");
        Path jar = Path.of(required("serviceJar")).toAbsolutePath().normalize();
        // one folder per simulation, so comparing another simulation keeps the earlier report
        Path dir = Path.of(System.getProperty("comparisonDir", "target/comparison"))
                .resolve(simulation.substring(simulation.lastIndexOf('.') + 1))
                .toAbsolutePath()
                .normalize();
        int simulatedNodes = Integer.parseInt(System.getProperty("simulatedNodes", "2"));
        List<String> serviceArgs = split(System.getProperty("serviceArgs", ""), "\\s+");
        List<String> serviceJvmArgs = split(System.getProperty("serviceJvmArgs", ""), "\\s+");
        List<String> gatlingJvmArgs = split(
                System.getProperty(
                        "gatlingJvmArgs",
                        "-Xmx2g -XX:MaxInlineLevel=20 -XX:MaxTrivialSize=12 --sun-misc-unsafe-memory-access=allow"
                                + " --enable-native-access=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED"
                                + " --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED"),
                "\\s+");
        Duration healthTimeout = Duration.ofSeconds(Long.getLong("healthTimeoutSeconds", 180));
        Duration warmup = Duration.ofSeconds(Long.getLong("warmupSeconds", 10));
        Map<String, String> forwarded = forwardedProperties();

        String machine = String.format(
                Locale.ROOT,
                "%s %s, %d CPUs, JDK %s",
                System.getProperty("os.name"),
                System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"));
        System.out.printf(
                "[compare] %s against %s on %s%n",
                simulation.substring(simulation.lastIndexOf('.') + 1), String.join(", ", locks), machine);
        System.out.printf(
                "[compare] service %s (simulated NUMA nodes: %d), simulation parameters %s%n",
                jar, simulatedNodes, forwarded.isEmpty() ? "(defaults)" : forwarded);
        System.out.printf("[compare] report to %s%n", dir);

        List<ComparisonReport.Row> rows = new ArrayList<>();
        Instant started = Instant.now();
        for (int i = 0; i < locks.size(); i++) {
            String lock = locks.get(i);
            String prefix = String.format(Locale.ROOT, "[%d/%d %s] ", i + 1, locks.size(), lock);
            rows.add(runOne(
                    lock,
                    prefix,
                    simulation,
                    jar,
                    dir.resolve(lock),
                    simulatedNodes,
                    serviceArgs,
                    serviceJvmArgs,
                    gatlingJvmArgs,
                    healthTimeout,
                    warmup,
                    forwarded));
        }

        String header = String.format(
                Locale.ROOT,
                "## %s, one run per lock type%n%nMachine: %s. Simulation parameters: %s."
                        + " Service: `%s`, simulated NUMA nodes: %d. Finished %s, took %d s.%n",
                simulation.substring(simulation.lastIndexOf('.') + 1),
                machine,
                forwarded.isEmpty() ? "defaults" : forwarded,
                jar.getFileName(),
                simulatedNodes,
                Instant.now(),
                Duration.between(started, Instant.now()).toSeconds());
        ComparisonReport.write(dir, header, rows);
        System.out.println();
        System.out.println(ComparisonReport.table(rows));
        System.out.printf("[compare] report: %s (charts: throughput.png, latency.png)%n", dir.resolve("report.md"));

        List<String> failed = rows.stream()
                .filter(r -> !r.gatling().passed())
                .map(ComparisonReport.Row::lock)
                .toList();
        if (!failed.isEmpty()) {
            throw new IllegalStateException("the simulation failed for " + failed
                    + " (assertions or the nothing-lost check): see the Gatling logs under " + dir);
        }
    }

    private static ComparisonReport.Row runOne(
            String lock,
            String prefix,
            String simulation,
            Path jar,
            Path dir,
            int simulatedNodes,
            List<String> serviceArgs,
            List<String> serviceJvmArgs,
            List<String> gatlingJvmArgs,
            Duration healthTimeout,
            Duration warmup,
            Map<String, String> forwarded)
            throws IOException, InterruptedException {
        List<String> appArgs = new ArrayList<>();
        appArgs.add("--wordstats.lock.type=" + lock);
        appArgs.add("--wordstats.numa.simulated-nodes=" + simulatedNodes);
        // room for the Connections simulation's 10,000 keep-alive connections arriving at once
        appArgs.add("--server.tomcat.max-connections=" + System.getProperty("tomcatMaxConnections", "12000"));
        appArgs.add("--server.tomcat.accept-count=" + System.getProperty("tomcatAcceptCount", "4096"));
        appArgs.addAll(serviceArgs);
        long t0 = System.nanoTime();
        System.out.println(prefix + "starting the service");
        try (ServiceProcess service = ServiceProcess.start(jar, serviceJvmArgs, appArgs, dir.resolve("service.log"))) {
            service.awaitHealthy(healthTimeout);
            System.out.printf(
                    Locale.ROOT,
                    "%shealthy at %s (pid %d) after %.1f s%n",
                    prefix,
                    service.baseUrl(),
                    service.pid(),
                    (System.nanoTime() - t0) / 1e9);

            AtomicLong peakFds = new AtomicLong(-1);
            AtomicBoolean running = new AtomicBoolean(true);
            Thread sampler = Thread.ofVirtual().start(() -> {
                while (running.get()) {
                    peakFds.accumulateAndGet(service.openFileDescriptors(), Math::max);
                    try {
                        Thread.sleep(500);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });

            if (!warmup.isZero()) {
                System.out.printf("%swarming up for %d s%n", prefix, warmup.toSeconds());
                ServiceWarmup.run(service.baseUrl(), warmup);
            }
            PrometheusText before = scrapePage(service, null, prefix);

            Map<String, String> properties = new TreeMap<>(forwarded);
            properties.put("baseUrl", service.baseUrl().toString());
            properties.put("gatling.data.enableAnalytics", "false");
            properties.put("gatling.http.warmUpUrl", "");
            System.out.println(prefix + "running " + simulation);
            GatlingRun.Result result;
            try {
                result = GatlingRun.run(
                        simulation,
                        properties,
                        gatlingJvmArgs,
                        dir.resolve("gatling"),
                        dir.resolve("gatling.log"),
                        prefix);
            } finally {
                running.set(false);
                sampler.interrupt();
                sampler.join();
            }
            System.out.printf(
                    "%sGatling %s: %s requests, %s failed, %s req/s, p50 %s ms, p99 %s ms%n",
                    prefix,
                    result.passed() ? "passed" : "FAILED (exit " + result.exitCode() + ", see " + result.log() + ")",
                    show(result.requests()),
                    show(result.failed()),
                    show(result.requestsPerSecond()),
                    show(result.p50Millis()),
                    show(result.p99Millis()));

            PrometheusText after = scrapePage(service, dir.resolve("prometheus.txt"), prefix);
            LockMetrics metrics = after == null
                    ? LockMetrics.none()
                    : LockMetrics.from(before == null ? after : after.since(before), lock);
            System.out.printf(
                    "%slock wait p99 %s (max %s), handoffs cross-node %s / same-node %s, slow path %s of %s acquisitions%n",
                    prefix,
                    metrics.waitP99Text(),
                    ComparisonReport.duration(metrics.waitMaxSeconds()),
                    show(metrics.crossNodeHandoffs()),
                    show(metrics.sameNodeHandoffs()),
                    show(metrics.slowAcquisitions()),
                    metrics.fastAcquisitions().isPresent()
                                    && metrics.slowAcquisitions().isPresent()
                            ? String.format(
                                    Locale.ROOT,
                                    "%.0f",
                                    metrics.fastAcquisitions().getAsDouble()
                                            + metrics.slowAcquisitions().getAsDouble())
                            : "n/a");
            System.out.println(prefix + "stopping the service");
            return new ComparisonReport.Row(lock, result, metrics, peakFds.get());
        }
    }

    /** The service's Prometheus page (also saved to {@code file} when given); null if unreadable. */
    private static PrometheusText scrapePage(ServiceProcess service, Path file, String prefix) {
        try (HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
            HttpResponse<String> page = client.send(
                    HttpRequest.newBuilder(service.baseUrl().resolve("/actuator/prometheus"))
                            .header("Accept", "text/plain")
                            .timeout(Duration.ofSeconds(30))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (file != null) {
                Files.writeString(file, page.body());
            }
            if (page.statusCode() != 200) {
                System.out.println(prefix + "/actuator/prometheus answered " + page.statusCode() + ": no lock figures");
                return null;
            }
            return PrometheusText.parse(page.body());
        } catch (IOException | RuntimeException e) {
            System.out.println(prefix + "cannot read /actuator/prometheus: " + e);
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Properties for the simulation: dot-less names (users, durationSeconds, ...) and gatling.*. */
    static Map<String, String> forwardedProperties() {
        Map<String, String> forwarded = new TreeMap<>();
        System.getProperties().forEach((k, v) -> {
            String name = k.toString();
            boolean simulationParameter = name.matches("[a-zA-Z][a-zA-Z0-9]*") && !OWN.contains(name);
            if (simulationParameter || name.startsWith("gatling.")) {
                forwarded.put(name, v.toString());
            }
        });
        return forwarded;
    }

    static String qualified(String simulation) {
        return simulation.contains(".") ? simulation : "dev.wordstats.loadtests." + simulation;
    }

    private static String required(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("-D" + name + " is required");
        }
        return value;
    }

    private static List<String> split(String text, String separator) {
        return Arrays.stream(text.strip().split(separator))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    private static String show(java.util.OptionalDouble value) {
        return value.isPresent() ? String.format(Locale.ROOT, "%.0f", value.getAsDouble()) : "n/a";
    }
}
