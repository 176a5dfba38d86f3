package dev.wordstats.benchmarks.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpreadTest {

    @Test
    void theMedianOfAnOddCountIsTheMiddleValueAndTheRangeIsMinToMax() {
        Spread s = Spread.of(List.of(1.3, 0.9, 1.1));
        assertThat(s.median()).isEqualTo(1.1);
        assertThat(s.min()).isEqualTo(0.9);
        assertThat(s.max()).isEqualTo(1.3);
        assertThat(s.count()).isEqualTo(3);
        assertThat(s.format(2)).isEqualTo("1.10 (0.90–1.30)");
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertThat(Spread.of(List.of(4.0, 1.0, 3.0, 2.0)).median()).isEqualTo(2.5);
    }

    @Test
    void valuesNotMeasuredAreLeftOut() {
        Spread s = Spread.of(Arrays.asList(Double.NaN, 2.0, null, 4.0));
        assertThat(s.count()).isEqualTo(2);
        assertThat(s.median()).isEqualTo(3.0);
        Spread none = Spread.of(List.of(Double.NaN));
        assertThat(none.isEmpty()).isTrue();
        assertThat(none.format(1)).isEqualTo("–");
    }

    @Test
    void aLockIsFasterOrSlowerOnlyWhenEveryRepeatAgrees() {
        assertThat(Spread.Verdict.of(Spread.of(List.of(1.02, 1.10, 1.05)))).isEqualTo(Spread.Verdict.FASTER);
        assertThat(Spread.Verdict.of(Spread.of(List.of(0.80, 0.97)))).isEqualTo(Spread.Verdict.SLOWER);
        assertThat(Spread.Verdict.of(Spread.of(List.of(0.89, 1.11, 1.17))))
                .isEqualTo(Spread.Verdict.NO_MEASURABLE_DIFFERENCE);
        assertThat(Spread.Verdict.of(Spread.of(List.of(1.0, 1.2)))).isEqualTo(Spread.Verdict.NO_MEASURABLE_DIFFERENCE);
        assertThat(Spread.Verdict.of(Spread.NONE)).isEqualTo(Spread.Verdict.NOT_MEASURED);
        assertThat(Spread.Verdict.NO_MEASURABLE_DIFFERENCE).hasToString("no measurable difference");
    }
}
