package dev.wordstats.benchmarks.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResultTableTest {

    @Test
    void timePerOpTurnsIntoUnitsPerSecond() {
        // 64,000 actions in 250 ms
        assertThat(ResultTable.throughput(250, "ms/op", 64_000)).isCloseTo(256_000, within(1e-6));
        assertThat(ResultTable.throughput(20, "ns/op", 1)).isCloseTo(5e7, within(1e-3));
        assertThat(ResultTable.throughput(3, "ops/ms", 1)).isCloseTo(3000, within(1e-9));
    }

    @Test
    void ratiosAreToTheBestReentrantLockOfTheSameParameters() {
        List<ResultRow> rows = ResultTable.withRatios(List.of(
                row("a", "NUMA_MCS", "64", 300),
                row("a", "FAIR_REENTRANT", "64", 100),
                row("a", "UNFAIR_REENTRANT", "64", 200),
                row("a", "NUMA_MCS", "4", 50),
                row("a", "FAIR_REENTRANT", "4", 100)));

        assertThat(rows).extracting(ResultRow::ratioToBestReentrant).containsExactly(1.5, 0.5, 1.0, 0.5, 1.0);
    }

    @Test
    void aGroupWithoutReentrantLockHasNoRatio() {
        assertThat(ResultTable.withRatios(List.of(row("b", "CHM_MERGE", "1", 10)))
                        .getFirst()
                        .ratioToBestReentrant())
                .isNaN();
    }

    private static ResultRow row(String bench, String lock, String threads, double throughput) {
        return new ResultRow(
                bench,
                "X.m",
                lock,
                Map.of("threads", threads),
                1,
                0,
                "ms/op",
                throughput,
                0,
                "actions",
                Double.NaN,
                Double.NaN,
                Map.of());
    }
}
