package dev.wordstats.benchmarks.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.wordstats.benchmarks.runner.ComparisonFigures.Kind;
import dev.wordstats.benchmarks.runner.ComparisonFigures.Sample;
import dev.wordstats.benchmarks.runner.ComparisonFigures.Verdict;
import dev.wordstats.benchmarks.runner.RegimeMatrix.Cell;
import dev.wordstats.benchmarks.runner.RegimeMatrix.Row;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegimeMatrixTest {

    private static final String UNFAIR = "UNFAIR_REENTRANT";
    private static final String SYNC = "SYNCHRONIZED";

    /** A text-task run of {@code lock} in bench {@code bench} with {@code stripes} stripes. */
    static Sample run(String bench, int stripes, int repeat, Kind kind, String lock, double throughput) {
        Map<String, String> params = new TreeMap<>();
        params.put("stripes", String.valueOf(stripes));
        params.put("threads", "64");
        params.put("vocabulary", "6");
        return new Sample(
                repeat,
                0,
                kind,
                new ResultRow(
                        bench,
                        "TextStatsBenchmark.countAllLines",
                        lock,
                        params,
                        1000.0 / throughput,
                        Double.NaN,
                        "ms/op",
                        throughput,
                        Double.NaN,
                        "lines",
                        Double.NaN,
                        Double.NaN,
                        Map.of()));
    }

    /** Three repeats of one case: each lock's throughput per repeat. */
    static List<Sample> repeats(String bench, int stripes, Map<String, double[]> throughput) {
        List<Sample> samples = new ArrayList<>();
        throughput.forEach((lock, values) -> {
            for (int r = 0; r < values.length; r++) {
                samples.add(run(bench, stripes, r + 1, Kind.LOCK, lock, values[r]));
            }
        });
        return samples;
    }

    @Test
    void everyLockHasItsRatioToBothReferencesWithinEachRepeat() {
        Map<String, double[]> t = new java.util.LinkedHashMap<>();
        t.put(UNFAIR, new double[] {100, 50, 200});
        t.put(SYNC, new double[] {120, 40, 260});
        t.put("NUMA_HANDOFF", new double[] {110, 60, 190});
        List<Row> rows = RegimeMatrix.of(repeats("hot6", 4, t), 2);

        assertThat(rows).hasSize(1);
        Cell handoff = rows.getFirst().cells().get("NUMA_HANDOFF");
        // to UNFAIR per repeat 1.10, 1.20, 0.95; to SYNC 0.917, 1.5, 0.731: the median of the ratios
        assertThat(handoff.ratios().get(0).median()).isCloseTo(1.10, within(1e-9));
        assertThat(handoff.ratios().get(0).min()).isCloseTo(0.95, within(1e-9));
        assertThat(handoff.ratios().get(0).max()).isCloseTo(1.20, within(1e-9));
        assertThat(handoff.ratios().get(1).median()).isCloseTo(110.0 / 120, within(1e-9));
        assertThat(handoff.ratios().get(1).max()).isCloseTo(1.5, within(1e-9));
        assertThat(handoff.verdicts())
                .containsExactly(Verdict.NO_MEASURABLE_DIFFERENCE, Verdict.NO_MEASURABLE_DIFFERENCE);
        // to the better reference per repeat: 110/120, 60/50, 190/260
        assertThat(handoff.toBest().median()).isCloseTo(110.0 / 120, within(1e-9));
        assertThat(handoff.toBest().max()).isCloseTo(1.2, within(1e-9));

        Cell unfair = rows.getFirst().cells().get(UNFAIR);
        assertThat(unfair.verdicts()).containsExactly(Verdict.REFERENCE, Verdict.NO_MEASURABLE_DIFFERENCE);
        assertThat(RegimeMatrix.cellText(unfair)).isEqualTo("ref<br>0.83 (0.77–1.25) =");
    }

    @Test
    void aCellOfABenchThatTimesItsWaitsShowsTheirP99AndMax() {
        List<Sample> samples = new ArrayList<>();
        double[][] waits = {{120, 4_000}, {150, 9_000}, {90, 2_500}}; // per repeat: p99 µs, max µs
        for (int r = 0; r < 3; r++) {
            for (String lock : List.of(UNFAIR, SYNC, "NUMA_HANDOFF")) {
                Sample plain = run("hot-lock", 1, r + 1, Kind.LOCK, lock, 100 + r);
                ResultRow row = plain.row();
                Map<String, Double> secondary = Map.of("waitP99Us", waits[r][0], "waitMaxUs", waits[r][1]);
                samples.add(new Sample(
                        plain.repeat(),
                        plain.position(),
                        plain.kind(),
                        new ResultRow(
                                row.bench(),
                                row.benchmark(),
                                row.lock(),
                                row.params(),
                                row.score(),
                                row.scoreError(),
                                row.scoreUnit(),
                                row.throughput(),
                                row.throughputError(),
                                row.unit(),
                                row.ratioToBestReentrant(),
                                row.csEfficiency(),
                                secondary)));
            }
        }

        Cell handoff = RegimeMatrix.of(samples, 2).getFirst().cells().get("NUMA_HANDOFF");

        assertThat(handoff.waitP99Us().median()).isEqualTo(120.0);
        assertThat(handoff.waitMaxUs().max()).isEqualTo(9_000.0);
        assertThat(RegimeMatrix.cellText(handoff))
                .endsWith("<br>wait p99 120.0 (90.0–150.0) µs, max 4.00 (2.50–9.00) ms");
        // a text-task row times no waits: its cells keep the two ratio lines
        Cell textTask = RegimeMatrix.of(repeats("lines", 1, Map.of(UNFAIR, new double[] {100, 100})), 2)
                .getFirst()
                .cells()
                .get(UNFAIR);
        assertThat(textTask.waitP99Us().present()).isFalse();
        assertThat(RegimeMatrix.cellText(textTask)).doesNotContain("wait");
    }

    @Test
    void aCellOfABenchThatCountsReadsAndWritesApartShowsBothRates() {
        List<Sample> samples = new ArrayList<>();
        double[][] rates = {{900_000, 40_000}, {1_100_000, 60_000}, {1_000_000, 50_000}
        }; // per repeat: reads/s, writes/s
        for (int r = 0; r < 3; r++) {
            for (String lock : List.of(UNFAIR, SYNC, "NUMA_RW")) {
                ResultRow row =
                        run("rw-stripe", 1, r + 1, Kind.LOCK, lock, 100 + r).row();
                Map<String, Double> secondary = Map.of(
                        "waitP99Us",
                        10.0,
                        "waitMaxUs",
                        1_000.0,
                        "readsPerSec",
                        rates[r][0],
                        "writesPerSec",
                        rates[r][1]);
                samples.add(new Sample(
                        r + 1,
                        0,
                        Kind.LOCK,
                        new ResultRow(
                                row.bench(),
                                "ReadWriteBenchmark.readAndWrite",
                                row.lock(),
                                row.params(),
                                row.score(),
                                row.scoreError(),
                                row.scoreUnit(),
                                row.throughput(),
                                row.throughputError(),
                                "operations",
                                row.ratioToBestReentrant(),
                                row.csEfficiency(),
                                secondary)));
            }
        }

        Cell rw = RegimeMatrix.of(samples, 2).getFirst().cells().get("NUMA_RW");

        assertThat(rw.readsPerSec().median()).isEqualTo(1_000_000.0);
        assertThat(rw.writesPerSec().min()).isEqualTo(40_000.0);
        assertThat(RegimeMatrix.cellText(rw)).endsWith("<br>reads/s 1000 (900–1100)k, writes/s 50 (40–60)k");
        Cell textTask = RegimeMatrix.of(repeats("lines", 1, Map.of(UNFAIR, new double[] {100, 100})), 2)
                .getFirst()
                .cells()
                .get(UNFAIR);
        assertThat(RegimeMatrix.cellText(textTask)).doesNotContain("reads/s");
    }

    @Test
    void aVerdictNeedsEveryRepeatOnOneSide() {
        Map<String, double[]> t = new java.util.LinkedHashMap<>();
        t.put(UNFAIR, new double[] {100, 100, 100});
        t.put(SYNC, new double[] {90, 95, 99});
        t.put("NUMA_MCS", new double[] {101, 130, 102});
        Row row = RegimeMatrix.of(repeats("hot6", 4, t), 2).getFirst();

        assertThat(row.cells().get(SYNC).verdicts()).containsExactly(Verdict.SLOWER, Verdict.REFERENCE);
        assertThat(row.cells().get("NUMA_MCS").verdicts()).containsExactly(Verdict.FASTER, Verdict.FASTER);
        assertThat(RegimeMatrix.cellText(row.cells().get("NUMA_MCS")))
                .isEqualTo("1.02 (1.01–1.30) +<br>1.12 (1.03–1.37) +");
        assertThat(RegimeMatrix.cellText(row.cells().get(SYNC))).isEqualTo("0.95 (0.90–0.99) −<br>ref");
    }

    @Test
    void theTopIsTheBestLockTypeWithTheOnesTheRepeatsCannotTellFromIt() {
        Map<String, double[]> t = new java.util.LinkedHashMap<>();
        t.put(UNFAIR, new double[] {100, 100, 100});
        t.put(SYNC, new double[] {120, 118, 125});
        t.put("NUMA_HANDOFF", new double[] {119, 121, 124}); // below SYNC in 2 of 3: not measurably
        t.put("FAIR_REENTRANT", new double[] {40, 41, 39});
        t.put("PER_THREAD_MAPS", new double[] {300, 310, 305}); // a bound, not a lock
        Row row = RegimeMatrix.of(repeats("zipf50k", 64, t), 2).getFirst();

        assertThat(row.top()).isEqualTo(SYNC);
        assertThat(row.tied()).containsExactly("NUMA_HANDOFF");
        assertThat(RegimeMatrix.top(row)).isEqualTo("**SYNCHRONIZED** (no measurable difference: NUMA_HANDOFF)");
    }

    @Test
    void aBenchWithSeveralCasesGetsARowEachLabelledByWhatDiffersAndItsFloorGivesTheBound() {
        List<Sample> samples = new ArrayList<>();
        for (int stripes : new int[] {1, 64}) {
            for (int r = 1; r <= 2; r++) {
                samples.add(run("hot6", stripes, r, Kind.LOCK, UNFAIR, 100));
                samples.add(run("hot6", stripes, r, Kind.LOCK, SYNC, 100 + stripes));
            }
        }
        samples.add(run("hot6", 1, 1, Kind.FLOOR_ALL, UNFAIR, 500));

        List<Row> rows = RegimeMatrix.of(samples, 2);

        assertThat(rows).extracting(Row::label).containsExactly("hot6 stripes=1", "hot6 stripes=64");
        assertThat(rows.getFirst().cells().get(UNFAIR).throughput().max()).isEqualTo(100);
        assertThat(rows.get(1).top()).isEqualTo(SYNC);
        assertThat(rows.get(1).tied()).isEmpty();
        // one thread did 500 a second; 2 carriers could do 1000, one at a time 500: 5x UNFAIR's 100
        assertThat(rows.getFirst().bound().median()).isEqualTo(5.0);
        assertThat(rows.getFirst().cells()).doesNotContainKey("floor");
        assertThat(rows.get(1).bound().present()).isFalse();
    }

    @Test
    void theTableHasARowPerCaseAndAColumnPerLock() {
        List<Sample> samples = new ArrayList<>();
        for (int r = 1; r <= 2; r++) {
            samples.add(run("hot6", 4, r, Kind.LOCK, UNFAIR, 100));
            samples.add(run("hot6", 4, r, Kind.LOCK, SYNC, 110));
            samples.add(run("hot6", 4, r, Kind.LOCK, "CHM_LONG_ADDER", 200));
            samples.add(run("cs2us", 4, r, Kind.LOCK, UNFAIR, 100));
            samples.add(run("cs2us", 4, r, Kind.LOCK, SYNC, 90));
        }

        String md = RegimeMatrix.markdown(RegimeMatrix.of(samples, 2));

        assertThat(md)
                .contains("the bounds (CHM_LONG_ADDER) are not candidates")
                .contains("| row | top | floor bound | UNFAIR_REENTRANT | SYNCHRONIZED | CHM_LONG_ADDER |\n"
                        + "|---|---|---:|---:|---:|---:|\n")
                .contains("| hot6 | **SYNCHRONIZED** | – | ref<br>0.91 (0.91–0.91) − | 1.10 (1.10–1.10) +<br>ref"
                        + " | 2.00 (2.00–2.00) +<br>1.82 (1.82–1.82) + |\n")
                .contains(
                        "| cs2us | **UNFAIR_REENTRANT** | – | ref<br>1.11 (1.11–1.11) + | 0.90 (0.90–0.90) −<br>ref | – |\n");
    }

    @Test
    void aComparisonWithoutEitherReferenceHasNoRatiosToShow() {
        Map<String, double[]> t = new java.util.LinkedHashMap<>();
        t.put("FAIR_REENTRANT", new double[] {100, 100});
        t.put("NUMA_MONITOR", new double[] {300, 310});
        List<Sample> samples = new ArrayList<>(repeats("hot6", 1, t));
        samples.addAll(repeats("hot6", 64, t));
        assertThat(RegimeMatrix.hasRatios(RegimeMatrix.of(samples, 2))).isFalse();

        t.put(UNFAIR, new double[] {200, 210});
        assertThat(RegimeMatrix.hasRatios(RegimeMatrix.of(repeats("hot6", 1, t), 2)))
                .isTrue();
    }

    @Test
    void theChartIsAPng(@TempDir Path dir) throws IOException {
        Map<String, double[]> t = new java.util.LinkedHashMap<>();
        t.put(UNFAIR, new double[] {100, 100});
        t.put(SYNC, new double[] {120, 118});
        t.put("PER_THREAD_MAPS", new double[] {300, 310});
        List<Sample> samples = new ArrayList<>(repeats("hot6", 1, t));
        samples.addAll(repeats("hot6", 64, t));

        Path chart = Charts.matrix("Regime matrix", RegimeMatrix.of(samples, 2), dir.resolve("matrix.png"));

        assertThat(Files.readAllBytes(chart)).hasSizeGreaterThan(1000).startsWith(0x89, 'P', 'N', 'G');
    }
}
