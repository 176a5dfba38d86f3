package dev.wordstats.numa.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The {@link LockType} factory: which lock each name makes, its settings, and parsing. */
class LockTypeTest {

    private static final NodeLocator NODES = NodeLocator.singleNode();

    @Test
    void eachTypeMakesItsLock() {
        assertThat(LockType.NUMA_MCS.create(NODES)).isInstanceOf(NumaMcsLock.class);
        assertThat(LockType.NUMA_HANDOFF.create(NODES)).isInstanceOf(NumaHandoffLock.class);
        assertThat(LockType.FAIR_REENTRANT.create(NODES))
                .isInstanceOfSatisfying(
                        ReentrantLock.class, lock -> assertThat(lock.isFair()).isTrue());
        assertThat(LockType.UNFAIR_REENTRANT.create(NODES))
                .isInstanceOfSatisfying(
                        ReentrantLock.class, lock -> assertThat(lock.isFair()).isFalse());
    }

    @Test
    void synchronizedIsAGuardOnlyAndSaysSoWhenAskedForALock() {
        assertThat(LockType.SYNCHRONIZED.isLock()).isFalse();
        assertThat(LockType.SYNCHRONIZED.createGuard(NODES)).isInstanceOf(SynchronizedGuard.class);
        assertThat(LockType.SYNCHRONIZED.createGuard(NODES))
                .as("a new monitor each time")
                .isNotSameAs(LockType.SYNCHRONIZED.createGuard(NODES));
        assertThatThrownBy(() -> LockType.SYNCHRONIZED.create(NODES))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("SYNCHRONIZED")
                .hasMessageContaining("createGuard");
        assertThatThrownBy(() -> LockType.SYNCHRONIZED.createObserved(NODES, LockTimer.NONE))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @ParameterizedTest
    @EnumSource(LockType.class)
    void everyTypeMakesGuardsOfItsTypeAndTheLockTypesAlsoLocks(LockType type) {
        assertThat(type.createGuard(NODES).type()).isEqualTo(type);
        ObservedGuard observed = type.createObservedGuard(NODES, LockTimer.NONE);
        assertThat(observed.type()).isEqualTo(type);
        assertThat(observed.stats()).isEqualTo(LockStats.ZERO);
        if (type.isLock()) {
            assertThat(type.create(NODES)).isNotNull();
            assertThat(type.createGuard(NODES)).isInstanceOf(LockGuard.class);
            assertThat(observed).isInstanceOf(ObservedLockGuard.class);
        } else {
            assertThat(observed).isInstanceOf(ObservedSectionGuard.class);
        }
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
                .hasMessageContaining(LockType.allowedValues());
        for (LockType type : LockType.values()) {
            assertThat(LockType.allowedValues()).contains(type.name());
            assertThat(LockType.parse(
                            type.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')))
                    .isEqualTo(type);
        }
    }

    @Test
    void numaHandoffTakesItsReservationThresholdFromTheSettings() {
        LockSettings settings = new LockSettings(Duration.ofMillis(3));
        assertThat(((NumaHandoffLock) LockType.NUMA_HANDOFF.create(NODES, settings)).reserveAfter())
                .isEqualTo(Duration.ofMillis(3));
    }
}
