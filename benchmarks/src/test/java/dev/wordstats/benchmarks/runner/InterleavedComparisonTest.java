package dev.wordstats.benchmarks.runner;

import static dev.wordstats.benchmarks.runner.ComparisonFiguresTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.benchmarks.runner.ComparisonFigures.CaseFigures;
import dev.wordstats.benchmarks.runner.ComparisonFigures.Kind;
import dev.wordstats.benchmarks.runner.ComparisonFigures.Sample;
import dev.wordstats.numa.lock.LockType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InterleavedComparisonTest {

    /** A payload that sets nothing but its locks (null: none named). */
    private static BenchConfig.Payload withLocks(List<String> locks) {
        return new BenchConfig.Payload(
                null, null, null, null, null, null, null, null, null, null, locks, null, null, null, null, null, null,
                null);
    }

    @Test
    void theLocksAreTheChosenOnesElseTheBenchsElseEveryType() {
        BenchConfig.Payload some = withLocks(List.of("FAIR_REENTRANT", "NUMA_MCS"));
        BenchConfig.Payload every = withLocks(null);
        BenchConfig.Bench withLocks = new BenchConfig.Bench("b", null, some);
        BenchConfig.Bench withoutLocks = new BenchConfig.Bench("b", null, every);

        assertThat(InterleavedComparison.locksOf(withLocks, null)).containsExactly("FAIR_REENTRANT", "NUMA_MCS");
        assertThat(InterleavedComparison.locksOf(withLocks, List.of("NUMA_HANDOFF")))
                .containsExactly("NUMA_HANDOFF");
        assertThat(InterleavedComparison.locksOf(withoutLocks, null)).hasSize(LockType.values().length);
    }

    @Test
    void onlyTheTextTaskRunsTheLockFreeStores() {
        BenchConfig.Bench text = new BenchConfig.Bench("t", "text-stats", withLocks(null));
        BenchConfig.Bench contention = new BenchConfig.Bench("c", "contention", withLocks(null));
        List<String> chosen = List.of("SYNCHRONIZED", "PER_THREAD_MAPS", "CHM_LONG_ADDER");

        assertThat(InterleavedComparison.locksOf(text, chosen)).isEqualTo(chosen);
        assertThat(InterleavedComparison.locksOf(contention, chosen)).containsExactly("SYNCHRONIZED");
        assertThat(InterleavedComparison.runnable(BenchmarkKind.TEXT_STATS))
                .contains("PER_THREAD_MAPS", "CHM_LONG_ADDER", "SYNCHRONIZED");
        assertThat(InterleavedComparison.runnable(BenchmarkKind.CONTENTION))
                .doesNotContain("PER_THREAD_MAPS")
                .hasSize(LockType.values().length);
    }

    @Test
    void eachBenchRunsItsOwnBoundsAndNoOtherBenchs() {
        BenchConfig.Bench readWrite = new BenchConfig.Bench("rw", "read-write", withLocks(null));
        BenchConfig.Bench text = new BenchConfig.Bench("t", "text-stats", withLocks(null));
        List<String> chosen = List.of("NUMA_RW", "COPY_ON_WRITE", "CHM_LONG_ADDER");

        assertThat(InterleavedComparison.locksOf(readWrite, chosen)).containsExactly("NUMA_RW", "COPY_ON_WRITE");
        assertThat(InterleavedComparison.locksOf(text, chosen)).containsExactly("NUMA_RW", "CHM_LONG_ADDER");
        assertThat(InterleavedComparison.runnable(BenchmarkKind.READ_WRITE))
                .contains("COPY_ON_WRITE", "NUMA_RW", "SYNCHRONIZED")
                .doesNotContain("CHM_LONG_ADDER")
                .hasSize(LockType.values().length + 1);
    }

    @Test
    void withSeveralCasesTheReportStartsWithTheMatrixAndItsChart() {
        List<Sample> samples = new ArrayList<>();
        for (int r = 1; r <= 2; r++) {
            samples.add(RegimeMatrixTest.run("hot6", 1, r, Kind.LOCK, "UNFAIR_REENTRANT", 100));
            samples.add(RegimeMatrixTest.run("hot6", 1, r, Kind.LOCK, "SYNCHRONIZED", 120));
            samples.add(RegimeMatrixTest.run("hot6", 64, r, Kind.LOCK, "UNFAIR_REENTRANT", 100));
            samples.add(RegimeMatrixTest.run("hot6", 64, r, Kind.LOCK, "SYNCHRONIZED", 80));
        }
        List<CaseFigures> cases = ComparisonFigures.of(samples, "UNFAIR_REENTRANT", 2);

        String md = InterleavedComparison.markdown(
                "Matrix",
                "cmd",
                "2 CPUs",
                "t0 to t1",
                "1.0",
                "1.2",
                2,
                "UNFAIR_REENTRANT",
                2,
                cases,
                RegimeMatrix.of(samples, 2),
                PooledRatios.of(samples));

        assertThat(md).contains("## Every case: ratios to UNFAIR_REENTRANT and SYNCHRONIZED\n");
        assertThat(md).contains("| hot6 stripes=1 | **SYNCHRONIZED** | – |");
        assertThat(md).contains("![ratio to the better JDK lock, per case and lock](matrix.png)");
        assertThat(md.indexOf("## Every case")).isLessThan(md.indexOf("## hot6"));
        // two rows of one unit: their ratios pooled, under the matrix and before the rows' own tables
        assertThat(md).contains("## Pooled over the rows of one unit\n");
        assertThat(md).contains("| lines (2 rows) | SYNCHRONIZED | 0.980 (");
        assertThat(md.indexOf("## Pooled"))
                .isGreaterThan(md.indexOf("## Every case"))
                .isLessThan(md.indexOf("## hot6"));
        assertThat(report(samples.subList(0, 2), 1))
                .doesNotContain("## Every case")
                .doesNotContain("## Pooled");
    }

    @Test
    void aRunOfTheComparisonKeepsTheBenchButOneLockAndOneFork() {
        BenchConfig.Payload payload = new BenchConfig.Payload(
                64000,
                1400,
                1400,
                3,
                5,
                2,
                0,
                false,
                "t",
                false,
                List.of("FAIR_REENTRANT", "NUMA_MCS"),
                64,
                2,
                700,
                false,
                null,
                null,
                Map.of("scheduler", "default,per-node"));

        BenchConfig.Payload lockRun = payload.forRun(List.of("NUMA_MCS"), null, null, null);
        BenchConfig.Payload floorCs = payload.forRun(List.of("FAIR_REENTRANT"), 1, 0, 0);

        assertThat(lockRun.locks()).containsExactly("NUMA_MCS");
        assertThat(lockRun.forks()).isEqualTo(1);
        assertThat(lockRun.threads()).isEqualTo(64);
        assertThat(lockRun.beforeCpuTokens()).isEqualTo(1400);
        assertThat(lockRun.params()).isEqualTo(payload.params());
        assertThat(floorCs.threads()).isEqualTo(1);
        assertThat(floorCs.beforeCpuTokens()).isZero();
        assertThat(floorCs.yieldsBefore()).isZero();
        assertThat(floorCs.inCpuTokens()).isEqualTo(1400);
        assertThat(floorCs.remotePenaltyTokens()).isEqualTo(700);
    }

    @Test
    void theReportShowsTheCommandMethodTablesAndBound() {
        List<Sample> samples = List.of(
                run(1, 0, Kind.LOCK, "UNFAIR_REENTRANT", 100, 64, Map.of("fairness", 0.4)),
                run(1, 1, Kind.LOCK, "NUMA_HANDOFF", 120, 64, Map.of("fairness", 1.0)),
                run(1, 2, Kind.FLOOR_ALL, "UNFAIR_REENTRANT", 125, 1, Map.of()),
                run(2, 0, Kind.LOCK, "NUMA_HANDOFF", 110, 64, Map.of("fairness", 1.0)),
                run(2, 1, Kind.LOCK, "UNFAIR_REENTRANT", 100, 64, Map.of("fairness", 0.6)),
                run(2, 2, Kind.FLOOR_ALL, "UNFAIR_REENTRANT", 127, 1, Map.of()));
        List<CaseFigures> cases = ComparisonFigures.of(samples, "UNFAIR_REENTRANT", 2);

        String md = InterleavedComparison.markdown(
                "Targets",
                "benchmarks/run.sh c.json out --interleave 2",
                "2 CPUs",
                "t0 to t1",
                "1.0",
                "1.2",
                2,
                "UNFAIR_REENTRANT",
                2,
                cases);

        assertThat(md)
                .contains("- Command: `benchmarks/run.sh c.json out --interleave 2`")
                .contains("- Machine: 2 CPUs")
                .contains("load average before 1.0, after 1.2")
                .contains("2 repeats")
                .contains("| lock | actions/s | ratio to UNFAIR_REENTRANT | verdict | Jain | cross-node % |\n")
                .contains(
                        "| UNFAIR_REENTRANT | 100 (100–100) | 1.00 (1.00–1.00) | reference | 0.50 (0.40–0.60) | n/a |")
                .contains("| NUMA_HANDOFF | 115 (110–120) | 1.15 (1.10–1.20) | faster | 1.00 (1.00–1.00) | n/a |")
                .contains("Serial floor: at most 126 (125–127) actions/s for any lock; bound 1.26 (1.25–1.27) x")
                .doesNotContain("longest wait ms |"); // no run timed its waits
    }

    @Test
    void theReportShowsWhatTheMachineDidWithTheCarriersWhenMeasured() {
        List<Sample> samples = List.of(
                run(
                        1,
                        0,
                        Kind.LOCK,
                        "UNFAIR_REENTRANT",
                        100,
                        64,
                        Map.of("carrierBusyCpus", 1.9, "carrierWaitPct", 4.0)),
                run(1, 1, Kind.LOCK, "NUMA_HANDOFF", 120, 64, Map.of("carrierBusyCpus", 1.7, "carrierWaitPct", 9.5)),
                run(2, 0, Kind.LOCK, "NUMA_HANDOFF", 110, 64, Map.of("carrierBusyCpus", 1.9, "carrierWaitPct", 0.5)),
                run(
                        2,
                        1,
                        Kind.LOCK,
                        "UNFAIR_REENTRANT",
                        100,
                        64,
                        Map.of("carrierBusyCpus", 2.0, "carrierWaitPct", 1.0)));
        String md = report(samples, 2);

        assertThat(md)
                .contains("| cross-node % | carriers busy (CPUs) | carriers waiting % |\n")
                .contains("|---|---:|---:|---|---:|---:|---:|---:|\n")
                .contains("| NUMA_HANDOFF | 115 (110–120) | 1.15 (1.10–1.20) | faster | n/a | n/a | 1.80 (1.70–1.90)"
                        + " | 5.0 (0.5–9.5) |")
                .contains("preempted by other threads or processes, or woken and not yet running");
    }

    @Test
    void theReportShowsTheLongestWaitOfQuietRoundsBesideTheMean() {
        Map<String, Double> quiet =
                Map.of("waitMaxUs", 6_000.0, "waitP99Us", 800.0, "waitMaxUsQuiet", 1_500.0, "quietRounds", 2.0);
        Map<String, Double> noQuiet = Map.of("waitMaxUs", 9_000.0, "waitP99Us", 1_500.0, "quietRounds", 0.0);
        List<Sample> samples = List.of(
                run(1, 0, Kind.LOCK, "UNFAIR_REENTRANT", 100, 64, noQuiet),
                run(1, 1, Kind.LOCK, "NUMA_HANDOFF", 120, 64, quiet));
        String md = report(samples, 1);

        assertThat(md)
                .contains(
                        "| longest wait ms | longest wait to UNFAIR_REENTRANT | p99 wait µs | longest wait, quiet rounds"
                                + " ms |\n")
                .contains("| NUMA_HANDOFF | 120 | 1.20 | faster | n/a | n/a | 6.0 | 0.67, shorter | 800 | 1.5 in 2 |\n")
                .contains(
                        "| UNFAIR_REENTRANT | 100 | 1.00 | reference | n/a | n/a | 9.0 | reference | 1500 | no quiet round"
                                + " |\n")
                .contains("waited less than 1% of their time");
    }

    /** The report of {@code samples} against UNFAIR_REENTRANT on 2 carriers, with placeholder headings. */
    private static String report(List<Sample> samples, int repeats) {
        List<CaseFigures> cases = ComparisonFigures.of(samples, "UNFAIR_REENTRANT", 2);
        return InterleavedComparison.markdown(
                "Targets", "cmd", "2 CPUs", "t0 to t1", "1.0", "1.2", repeats, "UNFAIR_REENTRANT", 2, cases);
    }

    @Test
    void theCsvHasARowPerRunWithItsRepeatPlaceAndKind() {
        List<Sample> samples = List.of(
                run(1, 0, Kind.LOCK, "UNFAIR_REENTRANT", 100, 64, Map.of("fairness", 0.5)),
                run(1, 1, Kind.FLOOR_CS, "UNFAIR_REENTRANT", 200, 1, Map.of()));

        List<String> lines = InterleavedComparison.csv(samples).lines().toList();

        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("repeat,position,kind,bench,params,lock,score");
        assertThat(lines.get(1))
                .startsWith("1,0,lock,half,\"{")
                .contains(",UNFAIR_REENTRANT,10.0000,ms/op,100.0000,actions,0.5000,,,,,,,");
        assertThat(lines.get(2)).startsWith("1,1,floor_cs,half,").contains("threads=1");
    }

    @Test
    void verifyFindsMissingRunsAndLocksWithoutSpread() {
        List<Sample> one = List.of(
                run(1, 0, Kind.LOCK, "UNFAIR_REENTRANT", 100, 64, Map.of()),
                run(1, 1, Kind.LOCK, "NUMA_HANDOFF", 0, 64, Map.of()));
        List<CaseFigures> cases = ComparisonFigures.of(one, "UNFAIR_REENTRANT", 2);

        List<String> problems = InterleavedComparison.problems(one, 3, cases);

        assertThat(problems)
                .anyMatch(p -> p.contains("only 2 lock results from 3 runs"))
                .anyMatch(p -> p.contains("non-positive throughput"))
                .anyMatch(p -> p.contains("NUMA_HANDOFF: fewer than 2 ratios"));
    }
}
