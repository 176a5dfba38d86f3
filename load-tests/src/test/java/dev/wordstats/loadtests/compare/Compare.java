package dev.wordstats.loadtests.compare;

import dev.wordstats.comparison.RunOrder;
import dev.wordstats.loadtests.AdminCredential;
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
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Plays one simulation against every lock type, {@code repeats} times with the order rotated
 * ({@link RunOrder}): for each run, start the service jar with {@code --wordstats.lock.type=TYPE}
 * on a free loopback port, wait for {@code /actuator/health} UP, warm it up, run the simulation in
 * its own Gatling JVM, scrape {@code /actuator/prometheus} for the lock figures and the service's HTTP figures
 * by kind of request ({@link ServerRequests}: reads and writes apart), stop the service.
 * At the end it writes {@code report.md} (median and min–max of every figure per lock, a verdict
 * only where the ranges do not overlap; each lock over the first, repeat by repeat, with a sign test
 * ({@link PairedRatio}); every run with a link to its Gatling HTML report), charts with min–max bars
 * and {@code runs.csv}, and fails if any run failed. It prints its progress as
 * it goes. The CI smoke is this runner with one lock type, one repeat and a few seconds of load.
 *
 * <pre>
 * ./mvnw -pl load-tests -am -Pcompare verify -DskipTests -Dsimulation=HighContention -DdurationSeconds=20
 * </pre>
 *
 * Its own parameters (system properties): {@code simulation} (HighContention; a simple name is looked up in
 * dev.wordstats.loadtests), {@code locks} (default: every {@code LockType}; the first is the reference of the
 * paired ratios), {@code repeats} (3), {@code stripes} (stripe counts, e.g. {@code 1,4}: one comparison each,
 * the service started with {@code --wordstats.lock.stripes=N}, reported under {@code stripes-N/}; default: one
 * at the service's own), {@code serviceJar}, {@code comparisonDir}, {@code simulatedNodes} (0: the machine's
 * real NUMA topology; N: the service splits its CPUs into N simulated nodes), {@code servicePlacement} and
 * {@code gatlingPlacement} (where each process runs: {@code cpus:0-3}, {@code nodes:1} or empty for anywhere;
 * see {@link Placement}), {@code tomcatMaxConnections} (12000) and {@code tomcatAcceptCount} (4096) for the
 * service's Tomcat, {@code serviceArgs} (more {@code --name=value} for the service, space separated),
 * {@code serviceJvmArgs}, {@code gatlingJvmArgs}, {@code healthTimeoutSeconds} (180), {@code warmupSeconds} (10:
 * texts posted by the runner before the simulation, so a cold JIT does not decide the figures; the lock figures
 * are the increase from after the warm-up to the end of the run). Every other property without a dot in its name
 * ({@code users}, {@code durationSeconds}, ...) and every {@code gatling.*} property is handed to the
 * simulation.
 */
public final class Compare {

    /**
     * The credential of the services this runner starts (they get it in their environment as
     * spring.security.user.*, the simulations as WORDSTATS_ADMIN_*): the one given to the runner
     * (AdminCredential), else a random password made for this comparison.
     */
    private static final AdminCredential CREDENTIAL = AdminCredential.forOwnService();

    private static final Set<String> OWN = Set.of(
            "simulation",
            "locks",
            "repeats",
            "stripes",
            "serviceJar",
            "comparisonDir",
            "simulatedNodes",
            "servicePlacement",
            "gatlingPlacement",
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

    /** The settings of one comparison that every run shares. */
    private record Setup(
            String simulation,
            int stripes,
            Path jar,
            int simulatedNodes,
            Placement servicePlacement,
            Placement gatlingPlacement,
            List<String> serviceArgs,
            List<String> serviceJvmArgs,
            List<String> gatlingJvmArgs,
            Duration healthTimeout,
            Duration warmup,
            Map<String, String> forwarded) {}

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        String simulation = qualified(System.getProperty("simulation", "HighContention"));
        String simpleName = simulation.substring(simulation.lastIndexOf('.') + 1);
        List<String> locks = split(System.getProperty("locks", String.join(",", allLockTypes())), ",");
        int repeats = Integer.parseInt(System.getProperty("repeats", "3"));
        if (repeats < 1 || locks.isEmpty()) {
            throw new IllegalArgumentException("need -Drepeats >= 1 and at least one lock type");
        }
        // one folder per simulation, so comparing another simulation keeps the earlier report
        Path simulationDir = Path.of(System.getProperty("comparisonDir", "target/comparison"))
                .resolve(simpleName)
                .toAbsolutePath()
                .normalize();
        List<Integer> stripeCounts = stripes(System.getProperty("stripes", ""));
        List<String> failed = new ArrayList<>();
        for (int stripes : stripeCounts) {
            // with -Dstripes, one folder per stripe count under the simulation's
            Path dir = stripes == 0 ? simulationDir : simulationDir.resolve("stripes-" + stripes);
            failed.addAll(compare(simpleName, locks, repeats, dir, setup(simulation, stripes)));
        }
        if (!failed.isEmpty()) {
            throw new IllegalStateException("the simulation failed for " + failed
                    + " (assertions or the nothing-lost check): see the Gatling logs under " + simulationDir);
        }
    }

    /** The settings every run of one stripe count shares ({@code stripes} 0: the service's default). */
    private static Setup setup(String simulation, int stripes) {
        return new Setup(
                simulation,
                stripes,
                Path.of(required("serviceJar")).toAbsolutePath().normalize(),
                Integer.parseInt(System.getProperty("simulatedNodes", "0")),
                Placement.parse(System.getProperty("servicePlacement", "")),
                Placement.parse(System.getProperty("gatlingPlacement", "")),
                split(System.getProperty("serviceArgs", ""), "\\s+"),
                split(System.getProperty("serviceJvmArgs", ""), "\\s+"),
                split(
                        System.getProperty(
                                "gatlingJvmArgs",
                                "-Xmx2g -XX:MaxInlineLevel=20 -XX:MaxTrivialSize=12 --sun-misc-unsafe-memory-access=allow"
                                        + " --enable-native-access=ALL-UNNAMED"
                                        + " --add-opens=java.base/java.lang=ALL-UNNAMED"
                                        + " --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED"),
                        "\\s+"),
                Duration.ofSeconds(Long.getLong("healthTimeoutSeconds", 180)),
                Duration.ofSeconds(Long.getLong("warmupSeconds", 10)),
                forwardedProperties());
    }

    /**
     * One comparison: every lock, {@code repeats} times, into {@code dir}; prints the tables and
     * returns the runs that failed ("LOCK (repeat N)").
     */
    private static List<String> compare(String simpleName, List<String> locks, int repeats, Path dir, Setup setup)
            throws IOException, InterruptedException {
        String machine = MachineInfo.summary();
        String command = command(simpleName, locks, repeats, setup);
        System.out.printf(
                "[compare] %s against %s, %d repeat(s), order rotated each repeat%n",
                simpleName, String.join(", ", locks), repeats);
        System.out.printf("[compare] machine: %s%n", machine);
        System.out.printf(
                "[compare] service %s (%s; placed on %s%s), Gatling placed on %s%s, simulation parameters %s%n",
                setup.jar(),
                setup.simulatedNodes() == 0 ? "real NUMA topology" : setup.simulatedNodes() + " simulated NUMA nodes",
                setup.servicePlacement(),
                prefixText(setup.servicePlacement()),
                setup.gatlingPlacement(),
                prefixText(setup.gatlingPlacement()),
                setup.forwarded().isEmpty() ? "(defaults)" : setup.forwarded());
        System.out.printf(
                "[compare] %s%n",
                setup.stripes() == 0 ? "the service's default stripe count" : setup.stripes() + " stripe(s)");
        System.out.printf("[compare] report to %s%n", dir);

        clearEarlierReport(dir);
        List<RunRecord> runs = new ArrayList<>();
        Instant started = Instant.now();
        String loadBefore = MachineInfo.loadAverage();
        int total = repeats * locks.size();
        for (int repeat = 1; repeat <= repeats; repeat++) {
            List<String> order = RunOrder.of(locks, repeat - 1);
            System.out.printf("[compare] repeat %d/%d: %s%n", repeat, repeats, String.join(", ", order));
            for (int position = 1; position <= order.size(); position++) {
                String lock = order.get(position - 1);
                int n = runs.size() + 1;
                String prefix = String.format(Locale.ROOT, "[%d/%d r%d %s] ", n, total, repeat, lock);
                runs.add(runOne(
                        repeat,
                        position,
                        lock,
                        prefix,
                        dir.resolve(String.format(Locale.ROOT, "r%d-%s", repeat, lock)),
                        setup));
            }
        }

        String header = String.format(
                Locale.ROOT,
                "# %s: %d lock type(s), %d repeat(s), order rotated each repeat%n%n"
                        + "- Command: `%s`%n"
                        + "- Machine: %s%n"
                        + "- Load average before: %s; after: %s%n"
                        + "- Service: `%s`, %s, %s, placed on %s; Gatling placed on %s%n"
                        + "- Simulation parameters: %s%n"
                        + "- Finished %s, took %d s%n",
                simpleName,
                locks.size(),
                repeats,
                command,
                machine,
                loadBefore,
                MachineInfo.loadAverage(),
                setup.jar().getFileName(),
                setup.stripes() == 0 ? "default stripes" : setup.stripes() + " stripe(s)",
                setup.simulatedNodes() == 0 ? "real NUMA topology" : setup.simulatedNodes() + " simulated NUMA nodes",
                setup.servicePlacement(),
                setup.gatlingPlacement(),
                setup.forwarded().isEmpty() ? "defaults" : setup.forwarded(),
                Instant.now(),
                Duration.between(started, Instant.now()).toSeconds());
        Path report = ComparisonReport.write(dir, header, locks, runs);
        var spreads = ComparisonReport.spreads(locks, runs);
        System.out.println();
        System.out.println(ComparisonReport.summaryTable(locks, runs, spreads));
        System.out.print(ComparisonReport.verdictList(ComparisonReport.verdicts(spreads)));
        if (locks.size() > 1) {
            System.out.println();
            System.out.print(ComparisonReport.pairedTable(locks, runs));
        }
        System.out.printf("[compare] report: %s (runs.csv, charts *.png beside it)%n", report);

        return runs.stream()
                .filter(r -> !r.passed())
                .map(r -> r.lock() + " (" + (setup.stripes() == 0 ? "" : setup.stripes() + " stripe(s), ") + "repeat "
                        + r.repeat() + ")")
                .toList();
    }

    /**
     * The stripe counts of {@code -Dstripes} ("1,4"): each a comparison of its own, the service started
     * with {@code --wordstats.lock.stripes=N}; empty: one comparison at the service's default (0 here).
     */
    static List<Integer> stripes(String text) {
        List<Integer> counts = new ArrayList<>();
        for (String value : split(text, ",")) {
            int n;
            try {
                n = Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("-Dstripes needs stripe counts like 1,4, was '" + text + "'", e);
            }
            if (n < 1) {
                throw new IllegalArgumentException("-Dstripes needs counts of at least 1, was '" + text + "'");
            }
            counts.add(n);
        }
        return counts.isEmpty() ? List.of(0) : List.copyOf(counts);
    }

    /**
     * Removes what an earlier comparison of the same simulation left in its folder (run folders,
     * report, CSV, charts), so the new report links only its own runs.
     */
    static void clearEarlierReport(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (var entries = Files.list(dir)) {
            for (Path entry : entries.toList()) {
                String name = entry.getFileName().toString();
                boolean ours = name.matches("r\\d+-[A-Z0-9_]+")
                        || name.equals("report.md")
                        || name.equals("runs.csv")
                        || name.endsWith(".png");
                if (ours) {
                    deleteRecursively(entry);
                }
            }
        }
    }

    private static void deleteRecursively(Path path) throws IOException {
        if (Files.isDirectory(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try (var children = Files.list(path)) {
                for (Path child : children.toList()) {
                    deleteRecursively(child);
                }
            }
        }
        Files.delete(path);
    }

    /** Every {@code LockType} name, from numa-locks when it is on the classpath. */
    static List<String> allLockTypes() {
        try {
            Class<?> type = Class.forName("dev.wordstats.numa.lock.LockType");
            return java.util.Arrays.stream(type.getEnumConstants())
                    .map(c -> ((Enum<?>) c).name())
                    .toList();
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("numa-locks is not on the classpath: name the lock types with -Dlocks=", e);
        }
    }

    /** The Maven command that repeats this comparison. */
    static String command(String simulation, List<String> locks, int repeats, Setup setup) {
        StringBuilder c = new StringBuilder("./mvnw -pl load-tests -am -Pcompare verify -DskipTests -Dsimulation=")
                .append(simulation)
                .append(" -Dlocks=")
                .append(String.join(",", locks))
                .append(" -Drepeats=")
                .append(repeats);
        if (setup.stripes() != 0) {
            c.append(" -Dstripes=").append(setup.stripes());
        }
        if (setup.simulatedNodes() != 0) {
            c.append(" -DsimulatedNodes=").append(setup.simulatedNodes());
        }
        for (String name :
                List.of("servicePlacement", "gatlingPlacement", "serviceArgs", "serviceJvmArgs", "warmupSeconds")) {
            String value = System.getProperty(name);
            if (value != null && !value.isBlank()) {
                c.append(" -D").append(name).append('=').append(value.contains(" ") ? "'" + value + "'" : value);
            }
        }
        setup.forwarded()
                .forEach((k, v) -> c.append(" -D").append(k).append('=').append(v));
        return c.toString();
    }

    private static String prefixText(Placement placement) {
        List<String> prefix = placement.prefix();
        return prefix.isEmpty() ? "" : ": " + String.join(" ", prefix);
    }

    private static RunRecord runOne(int repeat, int position, String lock, String prefix, Path dir, Setup setup)
            throws IOException, InterruptedException {
        List<String> appArgs = new ArrayList<>();
        appArgs.add("--wordstats.lock.type=" + lock);
        appArgs.add("--wordstats.numa.simulated-nodes=" + setup.simulatedNodes());
        if (setup.stripes() > 0) {
            appArgs.add("--wordstats.lock.stripes=" + setup.stripes());
        }
        // room for the Connections simulation's 10,000 keep-alive connections arriving at once
        appArgs.add("--server.tomcat.max-connections=" + System.getProperty("tomcatMaxConnections", "12000"));
        appArgs.add("--server.tomcat.accept-count=" + System.getProperty("tomcatAcceptCount", "4096"));
        // Each run's counts in its own directory: a run never restores another's snapshot.
        appArgs.add("--wordstats.store.data-dir=" + dir.resolve("data").toAbsolutePath());
        appArgs.addAll(setup.serviceArgs());
        long t0 = System.nanoTime();
        System.out.println(prefix + "starting the service");
        try (ServiceProcess service = ServiceProcess.start(
                setup.servicePlacement().prefix(),
                setup.jar(),
                setup.serviceJvmArgs(),
                appArgs,
                dir.resolve("service.log"),
                CREDENTIAL)) {
            service.awaitHealthy(setup.healthTimeout());
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

            if (!setup.warmup().isZero()) {
                System.out.printf(
                        "%swarming up for %d s%n", prefix, setup.warmup().toSeconds());
                ServiceWarmup.run(service.baseUrl(), setup.warmup());
            }
            PrometheusText before = scrapePage(service, null, prefix);

            Map<String, String> properties = new TreeMap<>(setup.forwarded());
            properties.put("baseUrl", service.baseUrl().toString());
            properties.put("gatling.data.enableAnalytics", "false");
            properties.put("gatling.http.warmUpUrl", "");
            System.out.println(prefix + "running " + setup.simulation());
            GatlingRun.Result result;
            try {
                result = GatlingRun.run(
                        setup.simulation(),
                        properties,
                        setup.gatlingJvmArgs(),
                        dir.resolve("gatling"),
                        dir.resolve("gatling.log"),
                        prefix,
                        setup.gatlingPlacement().prefix(),
                        CREDENTIAL);
            } finally {
                running.set(false);
                sampler.interrupt();
                sampler.join();
            }
            System.out.printf(
                    "%sGatling %s: %s requests, %s failed, %s req/s, p50 %s ms, p99 %s ms, p99.9 %s ms%n",
                    prefix,
                    result.passed() ? "passed" : "FAILED (exit " + result.exitCode() + ", see " + result.log() + ")",
                    show(result.requests()),
                    show(result.failed()),
                    show(result.requestsPerSecond()),
                    show(result.p50Millis()),
                    show(result.p99Millis()),
                    show(result.p999Millis()));

            PrometheusText after = scrapePage(service, dir.resolve("prometheus.txt"), prefix);
            PrometheusText run = after == null ? null : before == null ? after : after.since(before);
            LockMetrics metrics = run == null ? LockMetrics.none() : LockMetrics.from(run, lock);
            ServerRequests server = run == null ? ServerRequests.none() : ServerRequests.from(run, lock);
            System.out.printf(
                    "%slock wait p99 (slow path) %s (max %s, max bucket %s), handoffs cross-node %s / same-node %s, slow path %s of %s acquisitions%n",
                    prefix,
                    metrics.waitP99Text(),
                    ComparisonReport.duration(metrics.waitMaxSeconds()),
                    ComparisonReport.duration(metrics.waitMaxBucketSeconds()),
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
            RunRecord record =
                    new RunRecord(repeat, position, lock, result, metrics, server, peakFds.get(), result.report());
            if (server.hasReads()) {
                OptionalDouble seconds = record.measuredSeconds();
                System.out.printf(
                        "%sservice: reads %s req/s, p99 %s (lookups %s, top list %s); writes %s req/s, p99 %s;"
                                + " lock wait p99 (slow path) read %s, write %s%n",
                        prefix,
                        show(server.reads().perSecond(seconds)),
                        ComparisonReport.duration(server.reads().p99Seconds()),
                        ComparisonReport.duration(server.lookups().p99Seconds()),
                        ComparisonReport.duration(server.top().p99Seconds()),
                        show(server.writes().perSecond(seconds)),
                        ComparisonReport.duration(server.writes().p99Seconds()),
                        ComparisonReport.duration(metrics.readWaits().p99Seconds()),
                        ComparisonReport.duration(metrics.writeWaits().p99Seconds()));
            }
            System.out.println(prefix + "stopping the service");
            return record;
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

    private static String show(OptionalDouble value) {
        return value.isPresent() ? String.format(Locale.ROOT, "%.0f", value.getAsDouble()) : "n/a";
    }
}
