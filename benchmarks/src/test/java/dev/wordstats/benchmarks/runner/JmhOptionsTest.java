package dev.wordstats.benchmarks.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.benchmarks.BenchmarkJvm;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.Options;

class JmhOptionsTest {

    private static BenchConfig.Payload payload(List<String> locks, Boolean recordWaits, List<String> profilers) {
        return new BenchConfig.Payload(
                64000,
                0,
                1400,
                2,
                3,
                1,
                0,
                false,
                "t",
                false,
                locks,
                64,
                0,
                0,
                recordWaits,
                profilers,
                List.of("-XX:+UseNUMA"),
                Map.of("reserveAfterMicros", "0,1000"));
    }

    @Test
    void everyPayloadFieldBecomesAJmhOption() {
        BenchConfig.Bench bench =
                new BenchConfig.Bench("b", "contention", payload(List.of("NUMA_MCS"), false, List.of("gc")));
        Options o = JmhOptions.of(bench, Path.of("x.json"), p -> true).build();
        assertThat(o.getParameter("lockType").get()).containsExactly("NUMA_MCS");
        assertThat(o.getParameter("recordWaits").get()).containsExactly("false");
        assertThat(o.getParameter("threads").get()).containsExactly("64");
        assertThat(o.getParameter("reserveAfterMicros").get()).containsExactly("0", "1000");
        assertThat(o.getForkCount().get()).isEqualTo(1);
        assertThat(o.getMeasurementIterations().get()).isEqualTo(3);
        assertThat(o.getProfilers()).extracting(p -> p.getKlass()).containsExactly("gc");
        assertThat(o.getJvmArgsAppend().get()).endsWith("-XX:+UseNUMA");
    }

    @Test
    void extraJvmArgumentsKeepTheBenchmarksOwnFlags() {
        // JMH's jvmArgsAppend option replaces the @Fork annotation's: without the flags the forks
        // cannot read a virtual thread's mount state nor start the per-node schedulers.
        BenchConfig.Bench bench = new BenchConfig.Bench("b", "contention", payload(null, null, null));
        Options o = JmhOptions.of(bench, Path.of("x.json"), p -> true).build();
        assertThat(o.getJvmArgsAppend().get())
                .containsExactly(
                        BenchmarkJvm.ADD_EXPORTS,
                        BenchmarkJvm.ADD_OPENS,
                        BenchmarkJvm.NATIVE_ACCESS,
                        BenchmarkJvm.HEAP,
                        BenchmarkJvm.HEAP_MAX,
                        "-XX:+UseNUMA");
    }

    @Test
    void noLockListLeavesLockTypeToTheBenchmarkSoEveryTypeRuns() {
        BenchConfig.Bench bench = new BenchConfig.Bench("b", "contention", payload(null, null, null));
        Options o = JmhOptions.of(bench, Path.of("x.json"), p -> true).build();
        assertThat(o.getParameter("lockType").hasValue()).isFalse();
        assertThat(o.getParameter("recordWaits").hasValue()).isFalse();
    }

    @Test
    void perfProfilersAreLeftOutWherePerfCannotCount() {
        BenchConfig.Payload p = payload(null, false, List.of("gc", "perfnorm", "perfc2c"));
        assertThat(JmhOptions.profilers(p, name -> false)).containsExactly("gc");
        assertThat(JmhOptions.profilers(p, name -> true)).containsExactly("gc", "perfnorm", "perfc2c");
    }
}
