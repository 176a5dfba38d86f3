package dev.wordstats.benchmarks.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MarkdownReportTest {

    @TempDir
    Path dir;

    @Test
    void theReportHasTheCommandTheMachineEveryTableAndEveryChart() throws IOException {
        Path sys = dir.resolve("sys/node");
        Files.createDirectories(sys.resolve("node0"));
        Files.createDirectories(sys.resolve("node1"));
        Files.writeString(sys.resolve("node0/cpulist"), "0-23\n");
        Files.writeString(sys.resolve("node0/distance"), "10 20\n");
        Files.writeString(sys.resolve("node1/cpulist"), "24-47\n");
        Files.writeString(sys.resolve("node1/distance"), "20 10\n");
        Map<String, Object> machine = MachineDescription.describe(sys);

        Path presetDir = dir.resolve("report/high-contention");
        Files.createDirectories(presetDir);
        List<ResultRow> rows = ResultTable.withRatios(List.of(
                ChartsTest.row("NUMA_MCS", 104_000, 2_000, 3.5),
                ChartsTest.row("FAIR_REENTRANT", 100_000, 2_000, 1.0)));
        List<Path> charts = Charts.write("High", rows, presetDir);
        PresetRun ok = new PresetRun(
                "high-contention",
                "High",
                Path.of("benchmarks/config/high-contention.json"),
                presetDir,
                rows,
                charts,
                "1.00 0.50 0.20",
                "2.00 1.00 0.40",
                42,
                null);
        PresetRun failed = PresetRun.failed(
                Path.of("benchmarks/config/numa-cache.json"),
                dir.resolve("report/numa-cache"),
                "1.0",
                3,
                new IllegalStateException("perf c2c failed"));

        Path report =
                MarkdownReport.write(dir.resolve("report"), "benchmarks/run.sh --all", machine, List.of(ok, failed));

        String md = Files.readString(report);
        assertThat(md).contains("- Command: `benchmarks/run.sh --all`");
        assertThat(md).contains("## Machine").contains("| 0 | 0-23 | 10 20 |").contains("| 1 | 24-47 | 20 10 |");
        assertThat(md).contains("Load average: ");
        assertThat(md).contains("## high-contention: High");
        assertThat(md).contains("`benchmarks/run.sh benchmarks/config/high-contention.json`");
        assertThat(md).contains("load average before 1.00 0.50 0.20, after 2.00 1.00 0.40");
        assertThat(md).contains("| high-t64 | NUMA_MCS | 104,000 ± 2,000 | 1.9 | 1.040 | 3.5 | 0.900 | - | - |");
        assertThat(md).contains("| Jain | cross-node % | carriers waiting % |");
        assertThat(md).contains("![throughput-actions.png](high-contention/throughput-actions.png)");
        assertThat(md).contains("[high-contention/results.csv](high-contention/results.csv)");
        assertThat(md)
                .contains("## numa-cache: FAILED")
                .contains("**Did not finish**: java.lang.IllegalStateException");
        for (Path chart : charts) {
            assertThat(md).contains("(high-contention/" + chart.getFileName() + ")");
        }
    }

    @Test
    void theTableShowsHowLongTheCarriersWaitedForACpuWhenMeasured() {
        ResultRow measured = new ResultRow(
                "high-t64",
                "LockContentionBenchmark.actions",
                "NUMA_HANDOFF",
                Map.of("threads", "64"),
                1,
                0.01,
                "ms/op",
                100_000,
                Double.NaN,
                "actions",
                Double.NaN,
                Double.NaN,
                Map.of("fairness", 1.0, "carrierWaitPct", 4.25));

        String table = MarkdownReport.table(List.of(measured));

        assertThat(table).contains("| NUMA_HANDOFF | 100,000 | - | - | - | 1.000 | - | 4.3 |");
    }
}
