package dev.wordstats.benchmarks.runner;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wordstats.numa.lock.LockType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A runner configuration in the thesis format: a list of benches, each a name and a payload of JMH
 * parameters. Unknown fields are errors (a typo must not silently run the default).
 *
 * <pre>
 * {"title": "High contention",
 *  "benches": [{"name": "high-contention", "benchmark": "contention",
 *               "payload": {"actionsCount": 100000, "beforeCpuTokens": 0, "inCpuTokens": 1250,
 *                           "warmupIterations": 3, "measurementIterations": 8, "forks": 2,
 *                           "yieldsBefore": 0, "yieldInCrit": false, "title": "...", "skip": false,
 *                           "locks": ["LOCK_TYPES"],
 *                           "threads": 64, "simulatedNodes": 0, "remotePenaltyTokens": 0}}]}
 * </pre>
 *
 * @param title the config's title (chart titles)
 * @param benches the benches, run in order
 */
public record BenchConfig(String title, List<Bench> benches) {

    public BenchConfig {
        benches = List.copyOf(Objects.requireNonNull(benches, "benches"));
    }

    /**
     * One bench.
     *
     * @param name short name: file names and chart labels
     * @param benchmark which benchmark class: {@link BenchmarkKind} name, default {@code contention}
     * @param payload its parameters
     */
    public record Bench(String name, String benchmark, Payload payload) {
        public Bench {
            Objects.requireNonNull(name, "bench name");
            Objects.requireNonNull(payload, "payload of bench " + name);
        }

        public BenchmarkKind kind() {
            return BenchmarkKind.parse(benchmark == null ? "contention" : benchmark);
        }

        /**
         * This bench shrunk to a smoke that runs in well under a second per lock: no warm-up, one
         * measured round, no fork (the runner's JVM), no profiler; a contention round of at most
         * {@link #SMOKE_ACTIONS} actions and about {@link #SMOKE_TOKENS} tokens of work in all (at least
         * one action a thread), a text round of {@link #SMOKE_LINES} lines, a read/write round of
         * {@link #SMOKE_OPERATIONS} operations. Everything else (the locks,
         * threads, stripes, vocabulary, schedulers, nodes) is kept, so the smoke runs every case of the
         * bench as it is.
         */
        public Bench smoke() {
            Payload p = payload;
            Integer actions = p.actionsCount();
            if (kind() == BenchmarkKind.CONTENTION && actions != null) {
                long perAction = 1L + tokens(p.beforeCpuTokens()) + tokens(p.inCpuTokens());
                long threads = p.threads() == null ? 1 : p.threads();
                actions = (int) Math.max(threads, Math.min(actions, Math.min(SMOKE_ACTIONS, SMOKE_TOKENS / perAction)));
            }
            Map<String, String> params = p.params() == null ? new TreeMap<>() : new TreeMap<>(p.params());
            if (kind() == BenchmarkKind.TEXT_STATS) {
                params.put("lines", String.valueOf(SMOKE_LINES));
            }
            if (kind() == BenchmarkKind.READ_WRITE) {
                params.put("operations", String.valueOf(SMOKE_OPERATIONS));
            }
            return new Bench(
                    name,
                    benchmark,
                    new Payload(
                            actions,
                            p.beforeCpuTokens(),
                            p.inCpuTokens(),
                            0,
                            1,
                            0,
                            p.yieldsBefore(),
                            p.yieldInCrit(),
                            p.title(),
                            p.skip(),
                            p.locks(),
                            p.threads(),
                            p.simulatedNodes(),
                            p.remotePenaltyTokens(),
                            p.recordWaits(),
                            null,
                            null,
                            params.isEmpty() ? null : params));
        }

        private static long tokens(Integer value) {
            return value == null ? 0 : Math.max(0, value);
        }
    }

    /** A smoke's most actions a contention round. */
    static final int SMOKE_ACTIONS = 20_000;

    /** A smoke's contention round does about this many tokens of work (a few ms). */
    static final long SMOKE_TOKENS = 2_000_000;

    /** A smoke's text round. */
    static final int SMOKE_LINES = 1_000;

    /** A smoke's read/write round. */
    static final int SMOKE_OPERATIONS = 2_000;

    /** This config with every bench {@link Bench#smoke() shrunk to a smoke}. */
    public BenchConfig smoke() {
        return new BenchConfig(
                (title == null ? "" : title + " ") + "(smoke: not a measurement)",
                benches.stream().map(Bench::smoke).toList());
    }

    /**
     * The thesis payload plus the parameters this harness added ({@code threads},
     * {@code simulatedNodes}, {@code remotePenaltyTokens}, {@code recordWaits}) and {@code params}:
     * any other JMH parameter by name. A missing (null) field keeps the benchmark's default; no
     * {@code locks} runs every {@code LockType}, and {@code "LOCK_TYPES"} in it stands for every type.
     * {@code profilers} are JMH profiler names ({@code gc}, {@code perfnorm}, {@code perfc2c}...; the
     * perf ones are left out where perf cannot count) and {@code jvmArgs} are appended to the forked JVMs' arguments.
     */
    public record Payload(
            Integer actionsCount,
            Integer beforeCpuTokens,
            Integer inCpuTokens,
            Integer warmupIterations,
            Integer measurementIterations,
            Integer forks,
            Integer yieldsBefore,
            Boolean yieldInCrit,
            String title,
            Boolean skip,
            List<String> locks,
            Integer threads,
            Integer simulatedNodes,
            Integer remotePenaltyTokens,
            Boolean recordWaits,
            List<String> profilers,
            List<String> jvmArgs,
            Map<String, String> params) {

        /** In {@code locks}: every {@link LockType}, in declaration order. */
        public static final String ALL_LOCK_TYPES = "LOCK_TYPES";

        /** {@code locks} with {@link #ALL_LOCK_TYPES} replaced by every lock type's name. */
        public Payload {
            if (locks != null) {
                List<String> expanded = new ArrayList<>();
                for (String lock : locks) {
                    if (ALL_LOCK_TYPES.equals(lock)) {
                        Arrays.stream(LockType.values()).map(Enum::name).forEach(expanded::add);
                    } else {
                        expanded.add(lock);
                    }
                }
                locks = List.copyOf(expanded);
            }
        }

        public boolean skipped() {
            return Boolean.TRUE.equals(skip);
        }

        /**
         * This payload for one run of an interleaved comparison: only {@code runLocks}, one fork (none
         * when the payload asks for none, as a smoke does: it runs in the runner's JVM), and
         * {@code runThreads}, {@code runBeforeCpuTokens} and {@code runYieldsBefore} in place of the
         * payload's own where they are not null (the serial floor runs one thread, without outside work).
         */
        public Payload forRun(
                List<String> runLocks, Integer runThreads, Integer runBeforeCpuTokens, Integer runYieldsBefore) {
            return new Payload(
                    actionsCount,
                    runBeforeCpuTokens != null ? runBeforeCpuTokens : beforeCpuTokens,
                    inCpuTokens,
                    warmupIterations,
                    measurementIterations,
                    Integer.valueOf(0).equals(forks) ? 0 : 1,
                    runYieldsBefore != null ? runYieldsBefore : yieldsBefore,
                    yieldInCrit,
                    title,
                    skip,
                    runLocks,
                    runThreads != null ? runThreads : threads,
                    simulatedNodes,
                    remotePenaltyTokens,
                    recordWaits,
                    profilers,
                    jvmArgs,
                    params);
        }
    }

    public static BenchConfig read(Path file) throws IOException {
        ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        return mapper.readValue(file.toFile(), BenchConfig.class);
    }
}
