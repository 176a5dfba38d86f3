package dev.wordstats.benchmarks.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.wordstats.benchmarks.runner.ComparisonFigures.CaseFigures;
import dev.wordstats.benchmarks.runner.ComparisonFigures.Kind;
import dev.wordstats.benchmarks.runner.ComparisonFigures.LockFigures;
import dev.wordstats.benchmarks.runner.ComparisonFigures.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ComparisonFiguresTest {

    static ResultRow row(String lock, double throughput, Map<String, String> params, Map<String, Double> secondary) {
        return new ResultRow(
                "half",
                "LockContentionBenchmark.actions",
                lock,
                params,
                1000.0 / throughput,
                Double.NaN,
                "ms/op",
                throughput,
                Double.NaN,
                "actions",
                Double.NaN,
                Double.NaN,
                secondary);
    }

    /** A run on the default scheduler without outside work. */
    static Sample run(
            int repeat,
            int position,
            Kind kind,
            String lock,
            double throughput,
            int threads,
            Map<String, Double> secondary) {
        return new Sample(repeat, position, kind, row(lock, throughput, params("default", threads, 0), secondary));
    }

    static Map<String, String> params(String scheduler, int threads, int before) {
        Map<String, String> p = new TreeMap<>();
        p.put("scheduler", scheduler);
        p.put("threads", String.valueOf(threads));
        p.put("beforeCpuTokens", String.valueOf(before));
        p.put("inCpuTokens", "1400");
        return p;
    }

    @Test
    void ratiosAreTakenWithinARepeatAndSummedUpAsMedianAndRange() {
        List<Sample> samples = new ArrayList<>();
        double[] unfair = {100, 50, 200};
        double[] handoff = {110, 60, 190};
        for (int r = 0; r < 3; r++) {
            samples.add(new Sample(
                    r + 1, 0, Kind.LOCK, row("UNFAIR_REENTRANT", unfair[r], params("default", 64, 0), Map.of())));
            samples.add(new Sample(
                    r + 1, 1, Kind.LOCK, row("NUMA_HANDOFF", handoff[r], params("default", 64, 0), Map.of())));
        }

        List<CaseFigures> cases = ComparisonFigures.of(samples, "UNFAIR_REENTRANT", 2);

        assertThat(cases).hasSize(1);
        LockFigures reference = cases.getFirst().locks().getFirst();
        LockFigures handoffFigures = cases.getFirst().locks().get(1);
        assertThat(reference.verdict()).isEqualTo(ComparisonFigures.Verdict.REFERENCE);
        assertThat(reference.ratio().median()).isEqualTo(1.0);
        // per repeat 1.10, 1.20, 0.95: not the ratio of the medians (110 / 100)
        assertThat(handoffFigures.ratio().median()).isCloseTo(1.10, within(1e-9));
        assertThat(handoffFigures.ratio().min()).isCloseTo(0.95, within(1e-9));
        assertThat(handoffFigures.ratio().max()).isCloseTo(1.20, within(1e-9));
        assertThat(handoffFigures.verdict()).isEqualTo(ComparisonFigures.Verdict.NO_MEASURABLE_DIFFERENCE);
        assertThat(handoffFigures.throughput().median()).isEqualTo(110);
        assertThat(cases.getFirst().bound().present()).isFalse(); // no floor was run
    }

    @Test
    void eachParameterSetIsACaseOfItsOwn() {
        List<Sample> samples = new ArrayList<>();
        for (int r = 1; r <= 2; r++) {
            for (String scheduler : List.of("default", "per-node")) {
                samples.add(
                        new Sample(r, 0, Kind.LOCK, row("UNFAIR_REENTRANT", 100, params(scheduler, 64, 0), Map.of())));
                samples.add(new Sample(
                        r,
                        1,
                        Kind.LOCK,
                        row(
                                "NUMA_HANDOFF",
                                scheduler.equals("default") ? 90 : 120,
                                params(scheduler, 64, 0),
                                Map.of())));
            }
        }

        List<CaseFigures> cases = ComparisonFigures.of(samples, "UNFAIR_REENTRANT", 2);

        assertThat(cases).extracting(c -> c.params().get("scheduler")).containsExactly("default", "per-node");
        assertThat(cases.get(0).locks().get(1).verdict()).isEqualTo(ComparisonFigures.Verdict.SLOWER);
        assertThat(cases.get(1).locks().get(1).verdict()).isEqualTo(ComparisonFigures.Verdict.FASTER);
    }

    @Test
    void theBoundIsTheSerialFloorOrTheCarriersShareOfTheWholeWorkWhicheverIsLess() {
        List<Sample> samples = new ArrayList<>();
        // repeat 1: without outside work one thread does 300/s, with it 100/s: 2 carriers give 200/s at most
        // repeat 2: without outside work 150/s, with it 100/s: the critical sections bound it to 150/s
        double[][] floors = {{300, 100}, {150, 100}};
        for (int r = 1; r <= 2; r++) {
            samples.add(
                    new Sample(r, 0, Kind.LOCK, row("UNFAIR_REENTRANT", 125, params("default", 64, 1400), Map.of())));
            samples.add(new Sample(
                    r,
                    1,
                    Kind.FLOOR_ALL,
                    row("UNFAIR_REENTRANT", floors[r - 1][1], params("default", 1, 1400), Map.of())));
            samples.add(new Sample(
                    r, 2, Kind.FLOOR_CS, row("UNFAIR_REENTRANT", floors[r - 1][0], params("default", 1, 0), Map.of())));
        }

        List<CaseFigures> cases = ComparisonFigures.of(samples, "UNFAIR_REENTRANT", 2);

        assertThat(cases).hasSize(1); // the floor runs belong to the case despite their other threads and work
        CaseFigures c = cases.getFirst();
        assertThat(c.locks()).extracting(LockFigures::lock).containsExactly("UNFAIR_REENTRANT");
        assertThat(c.floorThroughput().min()).isEqualTo(150);
        assertThat(c.floorThroughput().max()).isEqualTo(200);
        assertThat(c.bound().min()).isCloseTo(1.2, within(1e-9));
        assertThat(c.bound().max()).isCloseTo(1.6, within(1e-9));
        assertThat(c.params()).doesNotContainKeys("threads", "beforeCpuTokens").containsEntry("inCpuTokens", "1400");
    }

    @Test
    void withoutOutsideWorkTheOneThreadRunIsTheFloor() {
        List<Sample> samples = List.of(
                new Sample(1, 0, Kind.LOCK, row("UNFAIR_REENTRANT", 90, params("default", 64, 0), Map.of())),
                new Sample(1, 1, Kind.FLOOR_ALL, row("UNFAIR_REENTRANT", 99, params("default", 1, 0), Map.of())));

        CaseFigures c = ComparisonFigures.of(samples, "UNFAIR_REENTRANT", 2).getFirst();

        assertThat(c.floorThroughput().median()).isEqualTo(99);
        assertThat(c.bound().median()).isCloseTo(1.1, within(1e-9));
    }

    @Test
    void secondaryFiguresAreScaledAndWaitsNotTimedAreLeftOut() {
        List<Sample> samples = List.of(
                new Sample(
                        1,
                        0,
                        Kind.LOCK,
                        row(
                                "UNFAIR_REENTRANT",
                                100,
                                params("default", 64, 0),
                                Map.of(
                                        "fairness",
                                        0.5,
                                        "crossNodePct",
                                        3.0,
                                        "waitMaxUs",
                                        6500.0,
                                        "waitP99Us",
                                        140.0,
                                        "carrierBusyCpus",
                                        1.75,
                                        "carrierWaitPct",
                                        2.5))),
                new Sample(
                        1,
                        1,
                        Kind.LOCK,
                        row(
                                "NUMA_HANDOFF",
                                100,
                                params("default", 64, 0),
                                Map.of("fairness", 1.0, "waitMaxUs", 0.0, "waitP99Us", 0.0))));

        List<LockFigures> locks =
                ComparisonFigures.of(samples, "UNFAIR_REENTRANT", 2).getFirst().locks();

        assertThat(locks.get(0).waitMaxMs().median()).isEqualTo(6.5);
        assertThat(locks.get(0).waitP99Us().median()).isEqualTo(140.0);
        assertThat(locks.get(0).crossNodePct().median()).isEqualTo(3.0);
        assertThat(locks.get(1).fairness().median()).isEqualTo(1.0);
        assertThat(locks.get(1).waitMaxMs().present()).isFalse();
        assertThat(locks.get(1).crossNodePct().present()).isFalse();
        assertThat(locks.get(0).carrierBusyCpus().median()).isEqualTo(1.75);
        assertThat(locks.get(0).carrierWaitPct().median()).isEqualTo(2.5);
        assertThat(locks.get(1).carrierWaitPct().present()).isFalse(); // not measured (not Linux)
    }

    @Test
    void theLongestWaitIsComparedWithTheReferencesRepeatByRepeat() {
        Map<String, String> p = params("default", 64, 0);
        List<Sample> samples = List.of(
                new Sample(1, 0, Kind.LOCK, row("FAIR_REENTRANT", 90, p, Map.of("waitMaxUs", 2_000.0))),
                new Sample(1, 1, Kind.LOCK, row("NUMA_HANDOFF", 110, p, Map.of("waitMaxUs", 3_000.0))),
                new Sample(1, 2, Kind.LOCK, row("UNFAIR_REENTRANT", 100, p, Map.of("waitMaxUs", 6_000.0))),
                new Sample(2, 0, Kind.LOCK, row("NUMA_HANDOFF", 110, p, Map.of("waitMaxUs", 2_000.0))),
                new Sample(2, 1, Kind.LOCK, row("UNFAIR_REENTRANT", 100, p, Map.of("waitMaxUs", 8_000.0))),
                new Sample(2, 2, Kind.LOCK, row("FAIR_REENTRANT", 90, p, Map.of("waitMaxUs", 4_000.0))));

        List<LockFigures> locks =
                ComparisonFigures.of(samples, "FAIR_REENTRANT", 2).getFirst().locks();

        LockFigures fair = locks.get(0);
        LockFigures handoff = locks.get(1);
        LockFigures unfair = locks.get(2);
        assertThat(fair.waitVerdict()).isEqualTo("reference");
        assertThat(handoff.waitMaxRatio().min()).isEqualTo(0.5);
        assertThat(handoff.waitMaxRatio().max()).isEqualTo(1.5);
        assertThat(handoff.waitVerdict()).isEqualTo("no measurable difference"); // longer once, shorter once
        assertThat(unfair.waitVerdict()).isEqualTo("longer"); // 3x and 2x
    }

    @Test
    void withoutTimedWaitsThereIsNoWaitVerdict() {
        Map<String, String> p = params("default", 64, 0);
        List<Sample> samples = List.of(
                new Sample(1, 0, Kind.LOCK, row("UNFAIR_REENTRANT", 100, p, Map.of("waitMaxUs", 0.0))),
                new Sample(1, 1, Kind.LOCK, row("NUMA_HANDOFF", 110, p, Map.of("waitMaxUs", 0.0))));

        LockFigures handoff = ComparisonFigures.of(samples, "UNFAIR_REENTRANT", 2)
                .getFirst()
                .locks()
                .get(1);

        assertThat(handoff.waitMaxRatio().present()).isFalse();
        assertThat(handoff.waitVerdict()).isEmpty();
    }
}
