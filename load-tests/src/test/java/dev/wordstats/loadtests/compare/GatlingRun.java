package dev.wordstats.loadtests.compare;

import dev.wordstats.loadtests.AdminCredential;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One Gatling run in a JVM of its own ({@code io.gatling.app.Gatling -s <class> -rf <dir>}), on
 * the JDK and test classpath this runner has. A fresh JVM per run keeps runs apart (no JIT, heap
 * or Netty state carried from one lock type to the next) and its exit code is Gatling's verdict:
 * 0 passed, non-zero for failed assertions (the nothing-lost check included) or a crash.
 *
 * <p>The figures come from the "Global Information" summary Gatling prints at the end, with the
 * percentiles of {@link #PERCENTILES}: Gatling 3.15 writes its statistics nowhere else in a form a
 * program can read (its report folder holds the HTML pages and a binary {@code simulation.log}, no
 * {@code js/stats.json} as older versions did).
 */
final class GatlingRun {

    /** A figure line of Gatling's console: "> name | total | OK | KO". */
    static final Pattern STAT_LINE =
            Pattern.compile("^> (.+?)\\s*\\|\\s*([0-9.,-]+)\\s*\\|\\s*([0-9.,-]+)\\s*\\|\\s*([0-9.,-]+)\\s*$");

    private static final Pattern ECHO = Pattern.compile(
            "^(\\[wordstats]|Global:|Reports generated|.*nothing lost: GET.*(: true|: false)|.*Exception|.*Run crashed).*");

    record Result(
            int exitCode,
            OptionalDouble requests,
            OptionalDouble failed,
            OptionalDouble requestsPerSecond,
            OptionalDouble steadyRequestsPerSecond,
            OptionalDouble p50Millis,
            OptionalDouble p99Millis,
            OptionalDouble p999Millis,
            Path log,
            java.util.Optional<Path> report) {
        boolean passed() {
            return exitCode == 0;
        }
    }

    /**
     * The four response-time percentiles Gatling is told to track ({@code gatling.charting.indicators.
     * percentile1..4}), in its console summary and HTML report alike: the median, p95, and the tail
     * the comparison reports, p99 and p99.9 (Gatling's own default stops at p99).
     */
    static final List<String> PERCENTILES = List.of("50", "95", "99", "99.9");

    private GatlingRun() {}

    /** The simulation JVM's properties that set {@link #PERCENTILES}. */
    static Map<String, String> percentileProperties() {
        Map<String, String> properties = new java.util.LinkedHashMap<>();
        for (int i = 0; i < PERCENTILES.size(); i++) {
            properties.put("gatling.charting.indicators.percentile" + (i + 1), PERCENTILES.get(i));
        }
        return properties;
    }

    /** The name of a percentile's line in Gatling's summary: "response time 99.9th percentile (ms)". */
    static String percentileLine(String percentile) {
        return "response time " + percentile + "th percentile (ms)";
    }

    static Result run(
            String simulationClass,
            Map<String, String> properties,
            List<String> jvmArgs,
            Path resultsDir,
            Path log,
            String prefix,
            List<String> placement,
            AdminCredential credential)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(placement);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        Map<String, String> all = new java.util.TreeMap<>(percentileProperties());
        all.putAll(properties); // a gatling.charting.* property given to the runner wins
        all.forEach((name, value) -> command.add("-D" + name + "=" + value));
        command.add("-cp");
        command.add(classpath());
        command.add("io.gatling.app.Gatling");
        command.addAll(List.of(
                "-s",
                simulationClass,
                "-rf",
                resultsDir.toAbsolutePath().toString(),
                "-rd",
                prefix.strip(),
                "-l",
                "wordstats-compare"));
        Files.createDirectories(resultsDir);
        Files.createDirectories(log.getParent());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        credential.toSimulationEnvironment(builder.environment());
        Process process = builder.start();
        Stats stats = new Stats();
        Progress progress = new Progress(prefix);
        SteadyRate rate = new SteadyRate();
        try (BufferedReader out =
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                PrintWriter file = new PrintWriter(Files.newBufferedWriter(log))) {
            String line;
            while ((line = out.readLine()) != null) {
                file.println(line);
                stats.accept(line);
                if (ECHO.matcher(line).matches()) {
                    System.out.println(prefix + line.strip());
                }
                progress.accept(line);
                rate.accept(line);
            }
        } finally {
            if (process.isAlive()) {
                process.destroyForcibly();
            }
        }
        int exit = process.waitFor();
        return new Result(
                exit,
                stats.get("request count"),
                stats.failed,
                stats.get("mean throughput (rps)"),
                rate.secondHalf(),
                stats.get(percentileLine(PERCENTILES.get(0))),
                stats.get(percentileLine(PERCENTILES.get(2))),
                stats.get(percentileLine(PERCENTILES.get(3))),
                log,
                htmlReport(resultsDir));
    }

    /** The newest {@code index.html} under the results folder: this run's Gatling HTML report. */
    static java.util.Optional<Path> htmlReport(Path resultsDir) throws IOException {
        if (!Files.isDirectory(resultsDir)) {
            return java.util.Optional.empty();
        }
        try (java.util.stream.Stream<Path> files =
                Files.find(resultsDir, 2, (p, a) -> p.getFileName().toString().equals("index.html"))) {
            return files.max(java.util.Comparator.comparing(p -> p.toFile().lastModified()));
        }
    }

    /** The classpath this class was loaded with: exec:java's test classpath, or java.class.path. */
    private static String classpath() {
        ClassLoader loader = GatlingRun.class.getClassLoader();
        if (loader instanceof URLClassLoader urls && urls.getURLs().length > 0) {
            List<String> entries = new ArrayList<>();
            for (URL url : urls.getURLs()) {
                try {
                    entries.add(Path.of(url.toURI()).toString());
                } catch (URISyntaxException | IllegalArgumentException e) {
                    throw new IllegalStateException("unusable classpath entry " + url, e);
                }
            }
            return String.join(java.io.File.pathSeparator, entries);
        }
        return System.getProperty("java.class.path");
    }

    /** One line per console period of Gatling: elapsed time, requests so far, active users. */
    private static final class Progress {
        private final String prefix;
        private String elapsed;
        private String requests = "?";
        private long active;

        Progress(String prefix) {
            this.prefix = prefix;
        }

        void accept(String line) {
            Matcher m = SteadyRate.ELAPSED.matcher(line);
            if (m.matches()) {
                elapsed = m.group(1);
                active = 0;
                return;
            }
            if (elapsed == null) {
                return;
            }
            Matcher stat = STAT_LINE.matcher(line.strip());
            if (stat.matches() && stat.group(1).strip().equals("Global")) {
                requests = stat.group(2) + " requests, " + stat.group(4) + " failed";
            }
            Matcher a = SteadyRate.ACTIVE.matcher(line);
            if (a.matches()) {
                active += Long.parseLong(a.group(1).replace(",", ""));
            }
            if (line.startsWith("=====")) {
                System.out.println(prefix + elapsed + " elapsed: " + requests + ", " + active + " active users");
                elapsed = null;
            }
        }
    }

    /** The "Global Information" block Gatling prints at the end; the last one printed wins. */
    private static final class Stats {
        private final Map<String, Double> totals = new java.util.HashMap<>();
        private OptionalDouble failed = OptionalDouble.empty();

        void accept(String line) {
            Matcher m = STAT_LINE.matcher(line.strip());
            if (!m.matches()) {
                return;
            }
            String name = m.group(1).strip();
            number(m.group(2)).ifPresent(v -> totals.put(name, v));
            if (name.equals("request count")) {
                failed = number(m.group(4));
                if (failed.isEmpty()) {
                    failed = OptionalDouble.of(0);
                }
            }
        }

        OptionalDouble get(String name) {
            Double value = totals.get(name);
            return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
        }

        private static OptionalDouble number(String text) {
            String t = text.replace(",", "");
            if (t.equals("-") || t.isEmpty()) {
                return OptionalDouble.empty();
            }
            try {
                return OptionalDouble.of(Double.parseDouble(t));
            } catch (NumberFormatException e) {
                return OptionalDouble.empty();
            }
        }
    }
}
