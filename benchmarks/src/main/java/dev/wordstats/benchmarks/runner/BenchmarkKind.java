package dev.wordstats.benchmarks.runner;

import dev.wordstats.benchmarks.contention.LockContentionBenchmark;
import dev.wordstats.benchmarks.cost.ConsumeCpuBenchmark;
import dev.wordstats.benchmarks.cost.NodeLookupBenchmark;
import dev.wordstats.benchmarks.cost.UncontendedLockBenchmark;
import dev.wordstats.benchmarks.readwrite.ReadWriteBenchmark;
import dev.wordstats.benchmarks.text.TextStatsBenchmark;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** The benchmark a bench runs, by the name a config gives in {@code "benchmark"}. */
public enum BenchmarkKind {

    /** {@link LockContentionBenchmark}: one op = {@code actionsCount} actions. */
    CONTENTION(LockContentionBenchmark.class, "actionsCount", "actions"),
    /** {@link TextStatsBenchmark}: one op = {@code lines} lines. */
    TEXT_STATS(TextStatsBenchmark.class, "lines", "lines"),
    /** {@link ReadWriteBenchmark}: one op = {@code operations} reads and writes. */
    READ_WRITE(ReadWriteBenchmark.class, "operations", "operations"),
    /** {@link UncontendedLockBenchmark}: one op = one lock+unlock or one call. */
    UNCONTENDED(UncontendedLockBenchmark.class, null, "acquisitions"),
    /** {@link NodeLookupBenchmark}: one op = one lookup. */
    NODE_LOOKUP(NodeLookupBenchmark.class, null, "lookups"),
    /** {@link ConsumeCpuBenchmark}: one op = one consumeCPU call. */
    CONSUME_CPU(ConsumeCpuBenchmark.class, null, "calls");

    private final Class<?> benchmarkClass;
    private final String opsParam;
    private final String unitName;

    BenchmarkKind(Class<?> benchmarkClass, String opsParam, String unitName) {
        this.benchmarkClass = benchmarkClass;
        this.opsParam = opsParam;
        this.unitName = unitName;
    }

    /** The JMH include pattern: every benchmark method of the class. */
    public String includePattern() {
        return "^" + Pattern.quote(benchmarkClass.getName() + ".");
    }

    public String simpleName() {
        return benchmarkClass.getSimpleName();
    }

    /** The JMH parameter that says how many units one op is, or null for one. */
    public String opsParam() {
        return opsParam;
    }

    /** What the throughput counts: "actions", "lines", ... */
    public String unitName() {
        return unitName;
    }

    /**
     * The {@code lockType} values beside the lock types that this benchmark runs: the text task's
     * lock-free stores and spin bound, the read/write benchmark's copy-on-write bound; none for the others.
     */
    public List<String> bounds() {
        return switch (this) {
            case TEXT_STATS -> TextStatsBenchmark.BOUNDS;
            case READ_WRITE -> ReadWriteBenchmark.BOUNDS;
            default -> List.of();
        };
    }

    public static BenchmarkKind parse(String name) {
        String normalized = name.trim().replace('-', '_').toUpperCase(Locale.ROOT);
        for (BenchmarkKind kind : values()) {
            if (kind.name().equals(normalized) || kind.simpleName().equalsIgnoreCase(name.trim())) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown benchmark '" + name + "'; allowed: "
                + Arrays.stream(values())
                        .map(k -> k.name().toLowerCase(Locale.ROOT).replace('_', '-'))
                        .collect(Collectors.joining(", ")));
    }
}
