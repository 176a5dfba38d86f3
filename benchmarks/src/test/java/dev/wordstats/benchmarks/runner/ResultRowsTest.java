package dev.wordstats.benchmarks.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.util.ListStatistics;

class ResultRowsTest {

    private static Map<String, Double> round(double waitMaxUs, double preemptedPct) {
        return Map.of("waitMaxUs", waitMaxUs, "carrierWaitPct", preemptedPct, "fairness", 1.0);
    }

    @Test
    void aForkIsItsIterationsMedianSoASlowSpellOfTheHostDoesNotMoveIt() {
        // Two iterations of five in a spell at a third of the speed: the mean moves 80%, the median not.
        ListStatistics fork = new ListStatistics(new double[] {22.0, 75.0, 23.0, 76.0, 22.5});
        assertThat(ResultRows.forkCentre(fork)).isEqualTo(23.0);
        assertThat(fork.getMean()).isGreaterThan(40.0);
        // Too few iterations for a median to mean more: their mean.
        assertThat(ResultRows.forkCentre(new ListStatistics(new double[] {20.0, 30.0})))
                .isEqualTo(25.0);
    }

    @Test
    void theQuietLongestWaitIsTheMedianOverRoundsWhoseCarriersWereLeftAlone() {
        Map<String, Double> secondary = new HashMap<>();

        ResultRows.quietRounds(
                List.of(
                        round(1_000, 0.2),
                        round(9_000, 6.0), // preempted for milliseconds: left out
                        round(1_400, 0.9),
                        round(5_000, 1.0), // at the threshold: not quiet
                        round(1_200, 0.0)),
                secondary);

        assertThat(secondary).containsEntry("waitMaxUsQuiet", 1_200.0).containsEntry("quietRounds", 3.0);
    }

    @Test
    void noQuietRoundIsCountedAsZeroRoundsWithoutAFigure() {
        Map<String, Double> secondary = new HashMap<>();

        ResultRows.quietRounds(List.of(round(8_000, 4.0), round(7_000, 2.5)), secondary);

        assertThat(secondary).containsEntry("quietRounds", 0.0).doesNotContainKey("waitMaxUsQuiet");
    }

    @Test
    void roundsWithoutTimedWaitsOrCarrierTimesAddNothing() {
        Map<String, Double> secondary = new HashMap<>();

        ResultRows.quietRounds(
                List.of(
                        round(0, 0.1), // waits not timed
                        Map.of("waitMaxUs", 2_000.0, "carrierWaitPct", Double.NaN), // not Linux
                        Map.of("waitMaxUs", 2_000.0)),
                secondary);

        assertThat(secondary).isEmpty();
    }
}
