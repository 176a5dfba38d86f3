package dev.wordstats.benchmarks.contention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class JainIndexTest {

    @Test
    void equalSharesAreFair() {
        assertThat(JainIndex.of(new long[] {5, 5, 5, 5})).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void oneThreadTakingEverythingScoresOneOverN() {
        assertThat(JainIndex.of(new long[] {40, 0, 0, 0})).isCloseTo(0.25, within(1e-12));
    }

    @Test
    void unevenSharesScoreBetween() {
        // (1+3)^2 / (2 * (1+9)) = 16/20
        assertThat(JainIndex.of(new long[] {1, 3})).isCloseTo(0.8, within(1e-12));
    }
}
