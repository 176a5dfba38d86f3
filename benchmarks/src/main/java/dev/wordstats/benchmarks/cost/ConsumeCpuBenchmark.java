package dev.wordstats.benchmarks.cost;

import dev.wordstats.benchmarks.BenchmarkJvm;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Calibration: how long {@code Blackhole.consumeCPU(tokens)} takes here, which turns the
 * contention presets' token counts into critical-section lengths (benchmarks/README.md records it).
 * Sampled, so that the runner can quote the median and the fastest call: on a shared machine the
 * mean includes the time the thread was preempted.
 *
 * <pre>{@code
 * ./mvnw -pl benchmarks -am -Pbench verify -DskipTests -Dbench.config=benchmarks/config/uncontended.json
 * (. .mvn/select-jdk.sh && "$JAVA_HOME/bin/java" -jar benchmarks/target/benchmarks.jar ConsumeCpuBenchmark)
 * }</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {BenchmarkJvm.HEAP, BenchmarkJvm.HEAP_MAX})
public class ConsumeCpuBenchmark {

    @Param({"100", "1000", "1400", "10000"})
    public long tokens;

    @Benchmark
    public void consumeCpu() {
        Blackhole.consumeCPU(tokens);
    }
}
