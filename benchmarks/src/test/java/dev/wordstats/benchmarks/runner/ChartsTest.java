package dev.wordstats.benchmarks.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartsTest {

    @Test
    void closeBarsFarFromZeroGetAnAxisThatStartsBelowTheLowestInterval() {
        // 100 ± 2 and 104 ± 2: the intervals span 98..106
        double min = Charts.axisMin(List.of(98.0, 102.0), List.of(102.0, 106.0));
        assertThat(min).isPositive().isLessThan(98.0).isGreaterThan(80.0);
    }

    @Test
    void barsThatDifferALotOrReachZeroStartAtZero() {
        assertThat(Charts.axisMin(List.of(10.0, 100.0), List.of(12.0, 110.0))).isNaN();
        assertThat(Charts.axisMin(List.of(0.0, 100.0), List.of(1.0, 101.0))).isNaN();
        assertThat(Charts.axisMin(List.of(-1.0, 100.0), List.of(1.0, 101.0))).isNaN();
        assertThat(Charts.axisMin(List.of(), List.of())).isNaN();
    }

    @Test
    void writesAThroughputChartPerUnitAndTheSecondaryCharts(@TempDir Path dir) throws IOException {
        List<ResultRow> rows = ResultTable.withRatios(List.of(
                row("NUMA_MCS", 104_000, 2_000, 3.5),
                row("FAIR_REENTRANT", 100_000, 2_000, 1.0),
                row("UNFAIR_REENTRANT", 101_000, 1_500, 2.0)));

        List<Path> charts = Charts.write("t", rows, dir);

        assertThat(charts)
                .extracting(p -> p.getFileName().toString())
                .contains("throughput-actions.png", "ratio-to-best-reentrant.png", "waitP99Us.png");
        for (Path chart : charts) {
            assertThat(Files.size(chart)).as(chart.toString()).isGreaterThan(1000);
        }
    }

    static ResultRow row(String lock, double throughput, double error, double p99) {
        return new ResultRow(
                "high-t64",
                "LockContentionBenchmark.actions",
                lock,
                Map.of("threads", "64"),
                1,
                0.01,
                "ms/op",
                throughput,
                error,
                "actions",
                Double.NaN,
                Double.NaN,
                Map.of("waitP99Us", p99, "fairness", 0.9));
    }
}
