package dev.wordstats.benchmarks.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.wordstats.benchmarks.runner.ComparisonFigures.Kind;
import dev.wordstats.benchmarks.runner.ComparisonFigures.Sample;
import dev.wordstats.benchmarks.runner.ComparisonFigures.Verdict;
import dev.wordstats.benchmarks.runner.PooledRatios.Pooled;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PooledRatiosTest {

    private static final String UNFAIR = "UNFAIR_REENTRANT";
    private static final String SYNC = "SYNCHRONIZED";
    private static final String MONITOR = "NUMA_MONITOR";

    /** Rows of the text task with 1, 4, 64 stripes, each lock's throughput per repeat as given for every row. */
    private static List<Sample> rows(int[] stripes, Map<String, double[][]> throughputByLock) {
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < stripes.length; i++) {
            int row = i;
            throughputByLock.forEach((lock, perRow) -> {
                for (int r = 0; r < perRow[row].length; r++) {
                    samples.add(RegimeMatrixTest.run("zipf50k", stripes[row], r + 1, Kind.LOCK, lock, perRow[row][r]));
                }
            });
        }
        return samples;
    }

    private static Pooled find(List<Pooled> pooled, String lock, String reference) {
        return pooled.stream()
                .filter(p -> p.lock().equals(lock) && p.reference().equals(reference))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void theGeometricMeanIsOverEveryPairOfEveryRowWithinItsRepeat() {
        Map<String, double[][]> t = new LinkedHashMap<>();
        t.put(SYNC, new double[][] {{100, 200}, {100, 50}});
        t.put(UNFAIR, new double[][] {{100, 100}, {100, 100}});
        t.put(MONITOR, new double[][] {{200, 100}, {100, 100}}); // over SYNC: 2, 0.5, 1, 2
        List<Pooled> pooled = PooledRatios.of(rows(new int[] {1, 4}, t));

        Pooled toSync = find(pooled, MONITOR, SYNC);
        assertThat(toSync.rows()).isEqualTo(2);
        assertThat(toSync.ratios()).containsExactly(2.0, 0.5, 1.0, 2.0);
        assertThat(toSync.geomean()).isCloseTo(Math.pow(2.0, 0.25), within(1e-12));
        assertThat(toSync.below()).isEqualTo(1);
        assertThat(toSync.low()).isLessThanOrEqualTo(toSync.geomean());
        assertThat(toSync.high()).isGreaterThanOrEqualTo(toSync.geomean());
        assertThat(find(pooled, SYNC, SYNC).verdict()).isEqualTo(Verdict.REFERENCE);
        assertThat(find(pooled, MONITOR, UNFAIR).ratios()).containsExactly(2.0, 1.0, 1.0, 1.0);
    }

    @Test
    void aLockBelowInMostPairsIsSlowerWhenTheIntervalStaysBelowOneAndNotOtherwise() {
        Map<String, double[][]> t = new LinkedHashMap<>();
        t.put(SYNC, new double[][] {{100, 100, 100}, {100, 100, 100}, {100, 100, 100}});
        // 5-10% below in every pair of every row: slower pooled, though each row's range may be too
        t.put(MONITOR, new double[][] {{92, 95, 90}, {94, 91, 93}, {95, 90, 92}});
        // below in 8 of 9 pairs but one far above: the interval covers 1
        t.put(UNFAIR, new double[][] {{92, 95, 90}, {94, 91, 93}, {95, 90, 180}});
        List<Pooled> pooled = PooledRatios.of(rows(new int[] {1, 4, 64}, t));

        Pooled monitor = find(pooled, MONITOR, SYNC);
        assertThat(monitor.high()).isLessThan(1.0);
        assertThat(monitor.verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(PooledRatios.cellText(monitor))
                .matches("0\\.924 \\(0\\.9\\d\\d–0\\.9\\d\\d\\) −, below in 9 of 9 \\(sign test p 0\\.00391\\)");

        Pooled unfair = find(pooled, UNFAIR, SYNC);
        assertThat(unfair.below()).isEqualTo(8);
        assertThat(unfair.low()).isLessThan(1.0);
        assertThat(unfair.high()).isGreaterThan(1.0);
        assertThat(unfair.verdict()).isEqualTo(Verdict.NO_MEASURABLE_DIFFERENCE);
        assertThat(PooledRatios.cellText(unfair)).endsWith(" =, below in 8 of 9 (sign test p 0.0391)");

        Pooled faster = PooledRatios.pool("lines", 3, "X", SYNC, List.of(1.1, 1.2, 1.15, 1.08, 1.3, 1.12));
        assertThat(faster.verdict()).isEqualTo(Verdict.FASTER);
    }

    @Test
    void theIntervalIsTheSameForTheSameRatios() {
        List<Double> ratios = List.of(0.8, 1.3, 0.95, 1.1, 0.7, 1.02, 0.99, 1.2);
        Pooled once = PooledRatios.pool("lines", 4, MONITOR, SYNC, ratios);
        Pooled again = PooledRatios.pool("lines", 4, MONITOR, SYNC, ratios);
        assertThat(again.low()).isEqualTo(once.low());
        assertThat(again.high()).isEqualTo(once.high());
        assertThat(once.low()).isGreaterThanOrEqualTo(0.7).isLessThan(once.geomean());
        assertThat(once.high()).isLessThanOrEqualTo(1.3).isGreaterThan(once.geomean());
    }

    @Test
    void aUnitWithOneRowOrWithoutAReferenceIsNotPooled() {
        Map<String, double[][]> oneRow = new LinkedHashMap<>();
        oneRow.put(SYNC, new double[][] {{100, 100}});
        oneRow.put(MONITOR, new double[][] {{90, 95}});
        assertThat(PooledRatios.of(rows(new int[] {4}, oneRow))).isEmpty();

        Map<String, double[][]> noReference = new LinkedHashMap<>();
        noReference.put("FAIR_REENTRANT", new double[][] {{100, 100}, {100, 100}});
        noReference.put(MONITOR, new double[][] {{90, 95}, {90, 95}});
        List<Pooled> none = PooledRatios.of(rows(new int[] {1, 4}, noReference));
        assertThat(none).isEmpty();
        assertThat(PooledRatios.markdown(none)).isEmpty();
    }

    @Test
    void theTableHasALineALockWithBothReferences() {
        Map<String, double[][]> t = new LinkedHashMap<>();
        t.put(UNFAIR, new double[][] {{100, 100}, {100, 100}});
        t.put(SYNC, new double[][] {{110, 120}, {105, 115}});
        t.put(MONITOR, new double[][] {{108, 118}, {100, 117}});
        String md = PooledRatios.markdown(PooledRatios.of(rows(new int[] {1, 64}, t)));

        assertThat(md)
                .contains("| rows | lock | over UNFAIR_REENTRANT | over SYNCHRONIZED |")
                .contains("| lines (2 rows) | UNFAIR_REENTRANT | ref |")
                .contains("| lines (2 rows) | SYNCHRONIZED | 1.124 (")
                // over SYNC 0.982, 0.983, 0.952, 1.017: below in 3 of 4, the interval across 1; over UNFAIR one
                // ratio of exactly 1 (the sign test leaves it out)
                .containsPattern("\\| lines \\(2 rows\\) \\| NUMA_MONITOR \\| 1\\.105 \\([^|]*\\) \\+, below in 0 of 4"
                        + " \\(sign test p 0\\.250\\) \\| 0\\.983 \\([^|]*\\) =, below in 3 of 4"
                        + " \\(sign test p 0\\.625\\) \\|");
    }
}
