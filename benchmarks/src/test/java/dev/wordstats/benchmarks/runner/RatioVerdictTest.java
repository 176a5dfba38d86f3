package dev.wordstats.benchmarks.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.benchmarks.runner.ComparisonFigures.Verdict;
import dev.wordstats.comparison.Spread;
import org.junit.jupiter.api.Test;

class RatioVerdictTest {

    @Test
    void aLockIsFasterOrSlowerOnlyWhenEveryRepeatAgrees() {
        assertThat(Verdict.of(Spread.ofValues(1.02, 1.10, 1.05))).isEqualTo(Verdict.FASTER);
        assertThat(Verdict.of(Spread.ofValues(0.80, 0.97))).isEqualTo(Verdict.SLOWER);
        assertThat(Verdict.of(Spread.ofValues(0.89, 1.11, 1.17))).isEqualTo(Verdict.NO_MEASURABLE_DIFFERENCE);
        assertThat(Verdict.of(Spread.ofValues(1.0, 1.2))).isEqualTo(Verdict.NO_MEASURABLE_DIFFERENCE);
        assertThat(Verdict.of(Spread.NONE)).isEqualTo(Verdict.NOT_MEASURED);
        assertThat(Verdict.NO_MEASURABLE_DIFFERENCE).hasToString("no measurable difference");
    }
}
