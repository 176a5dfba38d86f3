package dev.wordstats.loadtests.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.comparison.Spread;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VerdictTest {

    private static Map<String, Spread> spreads(Object... lockAndValues) {
        Map<String, Spread> m = new LinkedHashMap<>();
        for (int i = 0; i < lockAndValues.length; i += 2) {
            m.put((String) lockAndValues[i], Spread.ofValues((double[]) lockAndValues[i + 1]));
        }
        return m;
    }

    @Test
    void separatedRangesGiveARankingBestFirst() {
        Verdict v = Verdict.of(
                "requests/s",
                true,
                spreads(
                        "A", new double[] {100, 110, 105},
                        "B", new double[] {200, 190, 210},
                        "C", new double[] {150, 160, 155}));
        assertThat(v.tiers()).containsExactly(List.of("B"), List.of("C"), List.of("A"));
        assertThat(v.text()).isEqualTo("B > C > A");
        assertThat(v.separated()).containsExactly("B > C", "B > A", "C > A");
    }

    @Test
    void lowerIsBetterReversesTheOrder() {
        Verdict v = Verdict.of("p99", false, spreads("A", new double[] {5, 6}, "B", new double[] {1, 2}));
        assertThat(v.text()).isEqualTo("B > A");
    }

    @Test
    void overlappingRangesAreNoMeasurableDifference() {
        Verdict v = Verdict.of(
                "requests/s",
                true,
                spreads(
                        "A", new double[] {100, 130, 110},
                        "B", new double[] {120, 140, 125}));
        assertThat(v.differs()).isFalse();
        assertThat(v.text()).isEqualTo(Verdict.NO_DIFFERENCE);
        assertThat(v.rankingKey()).isEqualTo(Verdict.NO_DIFFERENCE);
    }

    @Test
    void aGroupThatOverlapsIsOneTierAndTheOutlierIsRanked() {
        Verdict v = Verdict.of(
                "requests/s",
                true,
                spreads(
                        "A", new double[] {100, 105},
                        "B", new double[] {103, 108},
                        "C", new double[] {50, 60}));
        assertThat(v.text()).isEqualTo("B ≈ A > C");
        assertThat(v.separated()).containsExactly("B > C", "A > C");
    }

    @Test
    void aChainOfOverlapsNamesTheMeasurablePair() {
        Verdict v = Verdict.of(
                "requests/s",
                true,
                spreads(
                        "A", new double[] {10, 12},
                        "B", new double[] {11.5, 13},
                        "C", new double[] {12.5, 14}));
        assertThat(v.tiers()).hasSize(1);
        assertThat(v.differs()).isTrue();
        assertThat(v.text()).contains("measurable: C > A");
    }

    @Test
    void oneRepeatGivesNoVerdictAtAll() {
        Verdict v = Verdict.of("requests/s", true, spreads("A", new double[] {1}, "B", new double[] {2}));
        assertThat(v.decidable()).isFalse();
        assertThat(v.differs()).isFalse();
        assertThat(v.text()).startsWith("no verdict");
    }

    @Test
    void locksWithoutTheFigureAreLeftOut() {
        Map<String, Spread> m = spreads("A", new double[] {1, 2}, "B", new double[] {5, 6});
        m.put("C", Spread.NONE);
        Verdict v = Verdict.of("x", true, m);
        assertThat(v.text()).isEqualTo("B > A");
    }

    @Test
    void aLockWithOneRunWhileOthersHaveSeveralIsLeftOutAndNamed() {
        Verdict v = Verdict.of(
                "r", true, spreads("A", new double[] {1, 2}, "B", new double[] {5, 6}, "C", new double[] {100}));
        assertThat(v.leftOut()).containsExactly("C");
        assertThat(v.text()).isEqualTo("B > A (left out, fewer than 2 passing runs: C)");
    }

    @Test
    void oneLockLeftWithARangeIsNoVerdict() {
        Verdict v =
                Verdict.of("r", true, spreads("A", new double[] {1, 2}, "B", new double[] {5}, "C", new double[] {7}));
        assertThat(v.text())
                .isEqualTo("no verdict: fewer than two locks with two or more passing runs"
                        + " (left out, fewer than 2 passing runs: B, C)");
        assertThat(v.rankingKey()).isEqualTo("no verdict");
    }

    @Test
    void theSameRankingTwiceHasTheSameKey() {
        Verdict first = Verdict.of("r", true, spreads("A", new double[] {1, 2}, "B", new double[] {5, 6}));
        Verdict second = Verdict.of("r", true, spreads("B", new double[] {7, 9}, "A", new double[] {0, 3}));
        assertThat(first.rankingKey()).isEqualTo(second.rankingKey());
    }
}
