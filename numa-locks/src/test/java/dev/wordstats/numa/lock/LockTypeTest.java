package dev.wordstats.numa.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;

/** The {@link LockType} factory: which lock each name makes, its settings, and parsing. */
class LockTypeTest {

    private static final NodeLocator NODES = NodeLocator.singleNode();

    @Test
    void eachTypeMakesItsLock() {
        assertThat(LockType.NUMA_MCS.create(NODES)).isInstanceOf(NumaMcsLock.class);
        assertThat(LockType.FAIR_REENTRANT.create(NODES))
                .isInstanceOfSatisfying(
                        ReentrantLock.class, lock -> assertThat(lock.isFair()).isTrue());
        assertThat(LockType.UNFAIR_REENTRANT.create(NODES))
                .isInstanceOfSatisfying(
                        ReentrantLock.class, lock -> assertThat(lock.isFair()).isFalse());
    }

    @Test
    void numaMcsTakesItsReservationThresholdFromTheSettings() {
        LockSettings settings = new LockSettings(Duration.ofMillis(7));
        assertThat(((NumaMcsLock) LockType.NUMA_MCS.create(NODES, settings)).reserveAfter())
                .isEqualTo(Duration.ofMillis(7));
        assertThat(((NumaMcsLock) LockType.NUMA_MCS.create(NODES)).reserveAfter())
                .isEqualTo(NumaMcsLock.DEFAULT_RESERVE_AFTER);
        ObservedLock observed = LockType.NUMA_MCS.createObserved(NODES, settings, LockTimer.NONE);
        assertThat(observed.toString()).contains("NumaMcsLock");
        assertThat(LockType.FAIR_REENTRANT.create(NODES, settings))
                .as("settings a type has no use for are ignored")
                .isInstanceOf(ReentrantLock.class);
    }

    @Test
    void settingsRejectNegativeOrMissingThresholds() {
        assertThatThrownBy(() -> new LockSettings(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reserveAfter");
        assertThatThrownBy(() -> new LockSettings(null)).isInstanceOf(NullPointerException.class);
        assertThat(LockSettings.DEFAULTS.reserveAfter()).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void parseAcceptsAnyCaseAndDashesAndNamesTheAllowedValuesOtherwise() {
        assertThat(LockType.parse("numa-mcs")).isEqualTo(LockType.NUMA_MCS);
        assertThat(LockType.parse(" Fair_Reentrant ")).isEqualTo(LockType.FAIR_REENTRANT);
        assertThatThrownBy(() -> LockType.parse("SPIN"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("SPIN")
                .hasMessageContaining("NUMA_MCS, FAIR_REENTRANT, UNFAIR_REENTRANT");
    }
}
