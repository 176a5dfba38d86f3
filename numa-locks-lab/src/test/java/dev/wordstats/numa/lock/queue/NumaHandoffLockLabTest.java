package dev.wordstats.numa.lock.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.lock.ConcurrencySupport;
import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The lab form of {@link NumaHandoffLock}: with every mechanism on and the production knobs it is the
 * production lock (so what the mechanism tests show of a lab lock holds for the production one), it
 * checks its knobs, it runs in the lock's runtime package but outside the library, and the mechanisms'
 * names parse as the benchmarks' {@code handoffWithout} gives them.
 */
class NumaHandoffLockLabTest {

    @Test
    void aLabLockWithEveryMechanismAndTheDefaultKnobsDecidesAsTheProductionLock() {
        for (int nodes : new int[] {1, 2}) {
            NodeLocator locator = new ConcurrencySupport.AssignedNodes(nodes);
            NumaHandoffLock production = new NumaHandoffLock(locator, Duration.ofMillis(1), 4);
            NumaHandoffLockLab lab = new NumaHandoffLockLab(locator, Duration.ofMillis(1), 4, HandoffMechanism.all());
            assertThat(lab.wakeAhead()).isEqualTo(production.wakeAhead()).isTrue();
            assertThat(lab.oneAwakeWaiter())
                    .isEqualTo(production.oneAwakeWaiter())
                    .isTrue();
            assertThat(lab.spinWhileOwnerRuns())
                    .isEqualTo(production.spinWhileOwnerRuns())
                    .isTrue();
            assertThat(lab.slicePair()).isEqualTo(production.slicePair()).isTrue();
            assertThat(lab.remoteTurn()).isEqualTo(production.remoteTurn()).isEqualTo(nodes > 1);
            assertThat(lab.inNodeBudget()).isEqualTo(production.inNodeBudget()).isPositive();
            assertThat(lab.spins()).isEqualTo(production.spins());
            assertThat(lab.passAfterNanos()).isEqualTo(production.passAfterNanos());
            assertThat(lab.partnerSpins()).isEqualTo(production.partnerSpins());
            assertThat(lab.reserveAfter()).isEqualTo(production.reserveAfter());
            assertThat(lab.queueCount()).isEqualTo(production.queueCount());
        }
    }

    @Test
    void aLabLockWithoutAMechanismSwitchesOnlyThatOneOff() {
        NodeLocator two = new ConcurrencySupport.AssignedNodes(2);
        NumaHandoffLockLab none = new NumaHandoffLockLab(two, Duration.ofMillis(1), 4, Set.of());
        assertThat(List.of(
                        none.wakeAhead(),
                        none.oneAwakeWaiter(),
                        none.spinWhileOwnerRuns(),
                        none.slicePair(),
                        none.remoteTurn()))
                .containsOnly(false);
        assertThat(none.inNodeBudget()).isZero();
        NumaHandoffLockLab withoutWakeAhead =
                new NumaHandoffLockLab(two, Duration.ofMillis(1), 4, HandoffMechanism.allExcept("WAKE_AHEAD"));
        assertThat(withoutWakeAhead.wakeAhead()).isFalse();
        assertThat(withoutWakeAhead.oneAwakeWaiter()).isTrue();
        assertThat(withoutWakeAhead.inNodeBudget()).isPositive();
        NumaHandoffLockLab withoutTimeSlice =
                new NumaHandoffLockLab(two, Duration.ofMillis(1), 4, HandoffMechanism.allExcept("TIME_SLICE"));
        assertThat(withoutTimeSlice.slicePair()).as("the pair shares the slice").isFalse();
    }

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
    void aLabLockChecksItsKnobs() {
        assertThatThrownBy(() -> new NumaHandoffLockLab(
                        NodeLocator.singleNode(), Duration.ofMillis(1), HandoffMechanism.all(), 0, 1, 1, 0L))
                .as("inNodeBudget 0")
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new NumaHandoffLockLab(
                        NodeLocator.singleNode(), Duration.ofMillis(1), HandoffMechanism.all(), 1, 0, 1, 0L))
                .as("maxAwake 0")
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new NumaHandoffLockLab(
                        NodeLocator.singleNode(), Duration.ofMillis(1), HandoffMechanism.all(), 1, 1, -1, 0L))
                .as("spins -1")
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new NumaHandoffLockLab(NodeLocator.singleNode(), Duration.ofMillis(1), 4, HandoffMechanism.all())
                        .mechanisms())
                .isEqualTo(HandoffMechanism.all());
    }

    /**
     * The lab overrides package-private variation points, which takes effect only within one runtime
     * package: the lab and the lock on the class path, loaded by one class loader, from two places (the
     * library's classes do not hold the lab).
     */
    @Test
    void theLabSharesTheLocksRuntimePackageFromOutsideTheLibrary() {
        assertThat(NumaHandoffLockLab.class.getModule().isNamed()).isFalse();
        assertThat(NumaHandoffLockLab.class.getModule()).isEqualTo(NumaHandoffLock.class.getModule());
        assertThat(NumaHandoffLockLab.class.getClassLoader()).isSameAs(NumaHandoffLock.class.getClassLoader());
        assertThat(NumaHandoffLockLab.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation())
                .isNotEqualTo(NumaHandoffLock.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation());
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
