package dev.wordstats.benchmarks.runner;

import dev.wordstats.benchmarks.BenchmarkJvm;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * A bench's JMH options: the benchmark class, iterations and forks, every parameter the payload
 * sets (a missing one keeps the benchmark's default; no {@code locks} = every {@code LockType}),
 * the profilers and the extra JVM arguments of the forks (after {@link BenchmarkJvm#flags()}, which
 * JMH would otherwise drop).
 *
 * <p>Profilers whose name starts with {@code perf} ({@code perfnorm}, {@code perfasm},
 * {@code perfc2c}) need Linux {@code perf}: where it is missing or not allowed to count, they are
 * left out with a line that says so, and the run goes on without them.
 */
final class JmhOptions {

    private JmhOptions() {}

    static ChainedOptionsBuilder of(BenchConfig.Bench bench, Path jmhJson) {
        return of(bench, jmhJson, PerfSupport::usable);
    }

    static ChainedOptionsBuilder of(BenchConfig.Bench bench, Path jmhJson, Predicate<String> perfUsable) {
        BenchConfig.Payload p = bench.payload();
        ChainedOptionsBuilder builder = new OptionsBuilder()
                .include(bench.kind().includePattern())
                .shouldFailOnError(true)
                .verbosity(VerboseMode.NORMAL)
                .result(jmhJson.toString())
                .resultFormat(ResultFormatType.JSON);
        if (p.forks() != null) {
            builder.forks(p.forks());
        }
        if (p.warmupIterations() != null) {
            builder.warmupIterations(p.warmupIterations());
        }
        if (p.measurementIterations() != null) {
            builder.measurementIterations(p.measurementIterations());
        }
        if (p.locks() != null && !p.locks().isEmpty()) {
            builder.param("lockType", p.locks().toArray(String[]::new));
        }
        param(builder, "actionsCount", p.actionsCount());
        param(builder, "beforeCpuTokens", p.beforeCpuTokens());
        param(builder, "inCpuTokens", p.inCpuTokens());
        param(builder, "yieldsBefore", p.yieldsBefore());
        param(builder, "yieldInCrit", p.yieldInCrit());
        param(builder, "threads", p.threads());
        param(builder, "simulatedNodes", p.simulatedNodes());
        param(builder, "remotePenaltyTokens", p.remotePenaltyTokens());
        param(builder, "recordWaits", p.recordWaits());
        if (p.params() != null) {
            p.params().forEach((name, values) -> builder.param(name, values.split(",")));
        }
        for (String profiler : profilers(p, perfUsable)) {
            builder.addProfiler(profiler);
        }
        if (p.jvmArgs() != null && !p.jvmArgs().isEmpty()) {
            // JMH's option replaces the @Fork annotation's jvmArgsAppend: the benchmark's own flags first.
            List<String> args = new ArrayList<>(BenchmarkJvm.flags());
            args.addAll(p.jvmArgs());
            builder.jvmArgsAppend(args.toArray(String[]::new));
        }
        // A short wall-clock bound per measured/warm-up time slot keeps AverageTime benches short.
        builder.timeout(TimeValue.minutes(5));
        return builder;
    }

    /** The payload's profilers less the perf ones where perf cannot be used. */
    static List<String> profilers(BenchConfig.Payload p, Predicate<String> perfUsable) {
        List<String> out = new ArrayList<>();
        if (p.profilers() == null) {
            return out;
        }
        for (String profiler : p.profilers()) {
            if (profiler.startsWith("perf") && !perfUsable.test(profiler)) {
                System.out.println("== profiler " + profiler + " left out: " + PerfSupport.why());
                continue;
            }
            out.add(profiler);
        }
        return out;
    }

    private static void param(ChainedOptionsBuilder builder, String name, Object value) {
        if (value != null) {
            builder.param(name, String.valueOf(value));
        }
    }
}
