package dev.wordstats.comparison;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SignTestTest {

    @Test
    void sixOfSixOnOneSideIsTheFewestThatReachFivePercent() {
        SignTest six = SignTest.of(List.of(1.1, 1.2, 1.05, 1.3, 1.01, 1.4));
        assertThat(six.above()).isEqualTo(6);
        assertThat(six.p()).isCloseTo(2.0 / 64, within(1e-12));
        assertThat(six.significant(0.05)).isTrue();

        SignTest five = SignTest.of(List.of(0.9, 0.8, 0.95, 0.7, 0.99));
        assertThat(five.below()).isEqualTo(5);
        assertThat(five.p()).isCloseTo(2.0 / 32, within(1e-12));
        assertThat(five.significant(0.05)).isFalse();
    }

    @Test
    void aSplitOfTwoAgainstEightGivesTheSumOfBothTails() {
        Double[] ratios = new Double[10];
        Arrays.fill(ratios, 0, 2, 1.5);
        Arrays.fill(ratios, 2, 10, 0.5);
        // P(X <= 2) + P(X >= 8) for X ~ B(10, 1/2): 2 * (1 + 10 + 45) / 1024
        assertThat(SignTest.of(Arrays.asList(ratios)).p()).isCloseTo(112.0 / 1024, within(1e-12));
    }

    @Test
    void anEvenSplitHasAPOfOne() {
        assertThat(SignTest.of(List.of(1.1, 0.9, 1.1, 0.9)).p()).isEqualTo(1.0);
        assertThat(SignTest.of(List.of(1.1, 0.9)).p()).isEqualTo(1.0);
    }

    @Test
    void tiesAndMissingRatiosAreLeftOut() {
        SignTest t = SignTest.of(Arrays.asList(1.0, 1.0, Double.NaN, null, 1.2));
        assertThat(t.above()).isEqualTo(1);
        assertThat(t.below()).isZero();
        assertThat(t.p()).isEqualTo(1.0);
        assertThat(SignTest.of(List.of()).p()).isEqualTo(1.0);
    }
}
