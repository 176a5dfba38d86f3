package dev.wordstats.numa.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The names of the handoff lock's mechanisms, as the benchmarks' {@code handoffWithout} gives them. */
class HandoffMechanismTest {

    @Test
    void aLabLockTakesItsReservationThresholdAndMechanismsFromItsArguments() {
        NumaHandoffLockLab lab = new NumaHandoffLockLab(
                NodeLocator.singleNode(), Duration.ofMillis(3), 2, HandoffMechanism.allExcept("wake-ahead"));
        assertThat(lab.reserveAfter()).isEqualTo(Duration.ofMillis(3));
        assertThat(lab.mechanisms())
                .containsExactlyInAnyOrder(
                        HandoffMechanism.ONE_AWAKE_WAITER,
                        HandoffMechanism.SPIN_WHILE_OWNER_RUNS,
                        HandoffMechanism.IN_NODE_PASS,
                        HandoffMechanism.TIME_SLICE,
                        HandoffMechanism.SLICE_PAIR,
                        HandoffMechanism.REMOTE_TURN);
    }

    @Test
    void namesParseIgnoringCaseAndDashes() {
        assertThat(HandoffMechanism.allExcept("none")).isEqualTo(HandoffMechanism.all());
        assertThat(HandoffMechanism.allExcept("IN_NODE_PASS, one-awake-waiter"))
                .containsExactlyInAnyOrder(
                        HandoffMechanism.WAKE_AHEAD,
                        HandoffMechanism.SPIN_WHILE_OWNER_RUNS,
                        HandoffMechanism.TIME_SLICE,
                        HandoffMechanism.SLICE_PAIR,
                        HandoffMechanism.REMOTE_TURN);
        assertThatThrownBy(() -> HandoffMechanism.allExcept("teleport"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("teleport")
                .hasMessageContaining("WAKE_AHEAD");
    }
}
