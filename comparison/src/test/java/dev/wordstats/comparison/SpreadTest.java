package dev.wordstats.comparison;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class SpreadTest {

    @Test
    void medianOfAnOddCountIsTheMiddleValue() {
        Spread s = Spread.ofValues(30, 10, 20);
        assertThat(s.median()).isEqualTo(20);
        assertThat(s.min()).isEqualTo(10);
        assertThat(s.max()).isEqualTo(30);
        assertThat(s.count()).isEqualTo(3);
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheTwoMiddleValues() {
        assertThat(Spread.ofValues(4, 1, 3, 2).median()).isEqualTo(2.5);
    }

    @Test
    void missingAndNonFiniteValuesAreLeftOutNotCountedAsZero() {
        Spread s = Spread.of(List.of(
                OptionalDouble.of(5), OptionalDouble.empty(), OptionalDouble.of(Double.NaN), OptionalDouble.of(7)));
        assertThat(s.count()).isEqualTo(2);
        assertThat(s.min()).isEqualTo(5);
        assertThat(s.median()).isEqualTo(6);
    }

    @Test
    void noValueIsNoSpread() {
        assertThat(Spread.of(List.of(OptionalDouble.empty())).present()).isFalse();
        assertThat(Spread.NONE.text("%.1f")).isEqualTo("n/a");
    }

    @Test
    void rangesThatTouchOverlap() {
        assertThat(Spread.ofValues(1, 2).overlaps(Spread.ofValues(2, 3))).isTrue();
        assertThat(Spread.ofValues(1, 2).overlaps(Spread.ofValues(2.01, 3))).isFalse();
        assertThat(Spread.ofValues(5, 9).overlaps(Spread.ofValues(6, 7))).isTrue();
    }

    @Test
    void textShowsMedianAndRangeAndOneRunAsAPlainNumber() {
        assertThat(Spread.ofValues(10, 12, 11).text("%.1f")).isEqualTo("11.0 (10.0–12.0)");
        assertThat(Spread.ofValues(10).text("%.0f")).isEqualTo("10");
        assertThat(Spread.ofValues(1, 3).times(1000).text("%.0f")).isEqualTo("2000 (1000–3000)");
    }
}
