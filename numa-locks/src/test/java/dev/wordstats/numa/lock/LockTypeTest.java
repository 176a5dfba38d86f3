package dev.wordstats.numa.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.lock.jdk.SynchronizedGuard;
import dev.wordstats.numa.lock.probe.CountingProbe;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.lock.probe.LockStats;
import dev.wordstats.numa.lock.queue.NumaHandoffLock;
import dev.wordstats.numa.lock.queue.NumaMcsLock;
import dev.wordstats.numa.lock.queue.NumaMonitorLock;
import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link LockType} registry: which lock each name makes, its settings, and parsing; without numa-locks-lab
 * on the class path, the types in the lab are unavailable and say where they are.
 */
class LockTypeTest {

    private static final NodeLocator NODES = NodeLocator.singleNode();

    @Test
    void eachTypeMakesItsLock() {
        assertThat(TestLocks.lock(LockType.NUMA_MCS, NODES)).isInstanceOf(NumaMcsLock.class);
        assertThat(TestLocks.lock(LockType.NUMA_HANDOFF, NODES)).isInstanceOf(NumaHandoffLock.class);
        assertThat(TestLocks.lock(LockType.FAIR_REENTRANT, NODES))
                .isInstanceOfSatisfying(
                        ReentrantLock.class, lock -> assertThat(lock.isFair()).isTrue());
        assertThat(TestLocks.lock(LockType.UNFAIR_REENTRANT, NODES))
                .isInstanceOfSatisfying(
                        ReentrantLock.class, lock -> assertThat(lock.isFair()).isFalse());
    }

    @Test
    void synchronizedIsAGuardOnly() {
        assertThat(LockType.SYNCHRONIZED.isLock()).isFalse();
        assertThat(TestLocks.guard(LockType.SYNCHRONIZED, NODES)).isInstanceOf(SynchronizedGuard.class);
        assertThat(TestLocks.guard(LockType.SYNCHRONIZED, NODES))
                .as("a new monitor each time")
                .isNotSameAs(TestLocks.guard(LockType.SYNCHRONIZED, NODES));
    }

    @Tag(TestLocks.EVERY_TYPE)
    @ParameterizedTest
    @MethodSource("dev.wordstats.numa.lock.TestLocks#types")
    void everyTypeMakesGuardsAndTheLockTypesLockGuards(LockType type) {
        CountingProbe probe = new CountingProbe(NODES);
        Guard probed = TestLocks.guard(type, NODES, probe);
        assertThat(probe.stats()).isEqualTo(LockStats.ZERO);
        probed.run(() -> {});
        assertThat(probe.stats()).isEqualTo(new LockStats(1, 0, 0, 0));
        assertThat(TestLocks.guard(type, NODES) instanceof LockGuard)
                .as("a LockGuard exactly when the type is a Lock")
                .isEqualTo(type.isLock());
        assertThat(probed instanceof LockGuard).isEqualTo(type.isLock());
        assertThat(TestLocks.guard(type, NODES) instanceof ReadWriteLock)
                .as("a ReadWriteLock exactly when the type says it is one")
                .isEqualTo(type.isReadWriteLock());
        assertThat(probed instanceof ReadWriteLock).isEqualTo(type.isReadWriteLock());
    }

    @Test
    void theQueueLocksTakeTheirReservationThresholdFromTheSettings() {
        LockSettings settings = LockSettings.DEFAULTS.with(new QueueLockSettings(Duration.ofMillis(7)));
        assertThat(((NumaMcsLock) TestLocks.lock(LockType.NUMA_MCS, NODES, settings, LockProbe.NONE)).reserveAfter())
                .isEqualTo(Duration.ofMillis(7));
        assertThat(((NumaMcsLock) TestLocks.lock(LockType.NUMA_MCS, NODES)).reserveAfter())
                .isEqualTo(NumaMcsLock.DEFAULT_RESERVE_AFTER);
        assertThat(((NumaHandoffLock) TestLocks.lock(LockType.NUMA_HANDOFF, NODES, settings, LockProbe.NONE))
                        .reserveAfter())
                .isEqualTo(Duration.ofMillis(7));
        assertThat(TestLocks.lock(LockType.FAIR_REENTRANT, NODES, settings, LockProbe.NONE))
                .as("settings of another family are ignored")
                .isInstanceOf(ReentrantLock.class);
    }

    @Test
    void settingsRejectNegativeOrMissingThresholds() {
        assertThatThrownBy(() -> new QueueLockSettings(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reserveAfter");
        assertThatThrownBy(() -> new QueueLockSettings(null)).isInstanceOf(NullPointerException.class);
        assertThat(LockSettings.DEFAULTS.queue().reserveAfter()).isEqualTo(Duration.ofMillis(1));
        assertThatThrownBy(() -> new LockSettings(null, CombiningSettings.DEFAULTS, MonitorLockSettings.DEFAULTS))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void numaMonitorReadsItsOwnSettingsWhichAreValidated() {
        MonitorLockSettings.Adaptation adaptation = new MonitorLockSettings.Adaptation(8, 3, 4, 50, 512, 10, false);
        LockSettings settings =
                LockSettings.DEFAULTS.with(new MonitorLockSettings(Duration.ofMillis(3)).with(adaptation));
        NumaMonitorLock lock =
                (NumaMonitorLock) LockType.NUMA_MONITOR.create(TestLocks.context(NODES), settings, LockProbe.NONE);
        assertThat(lock.handoffAfter()).isEqualTo(Duration.ofMillis(3));
        assertThat(lock.adaptation()).isEqualTo(adaptation);
        assertThat(lock.isWord()).as("told not to start as a word").isFalse();
        assertThat(((NumaMonitorLock) LockType.NUMA_MONITOR.create(
                                TestLocks.context(NODES), LockSettings.DEFAULTS, LockProbe.NONE))
                        .adaptation())
                .isEqualTo(MonitorLockSettings.Adaptation.DEFAULTS);
        // the adaptation defaults are the lock's constants: checked by
        // NumaMonitorLockTest.theAdaptationDefaultsAreTheLocksConstants
        assertThat(MonitorLockSettings.DEFAULTS.handoffAfter()).isEqualTo(NumaMonitorLock.DEFAULT_HANDOFF_AFTER);
        assertThatThrownBy(() -> new MonitorLockSettings.Adaptation(48, 2, 16, 75, 4096, 25, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sampleEvery");
        assertThatThrownBy(() -> new MonitorLockSettings.Adaptation(0, 2, 16, 75, 4096, 25, true))
                .hasMessageContaining("sampleEvery");
        assertThatThrownBy(() -> new MonitorLockSettings.Adaptation(64, 0, 16, 75, 4096, 25, true))
                .hasMessageContaining("judgeAfter");
        assertThatThrownBy(() -> new MonitorLockSettings.Adaptation(64, 2, 0, 75, 4096, 25, true))
                .hasMessageContaining("windowSamples");
        assertThatThrownBy(() -> new MonitorLockSettings.Adaptation(64, 2, 16, -1, 4096, 25, true))
                .hasMessageContaining("saturatedPercent");
        assertThatThrownBy(() -> new MonitorLockSettings.Adaptation(64, 2, 16, 75, 0, 25, true))
                .hasMessageContaining("firstProbation");
        assertThatThrownBy(() -> new MonitorLockSettings.Adaptation(64, 2, 16, 75, 4096, -1, true))
                .hasMessageContaining("busyPercent");
        assertThatThrownBy(() -> new MonitorLockSettings(Duration.ofMillis(-1))).hasMessageContaining("handoffAfter");
        assertThatThrownBy(() -> new MonitorLockSettings(Duration.ofMillis(1), null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void theTypesInTheLabAreUnavailableWithoutItAndNameTheArtifact() {
        LockContext context = TestLocks.context(NODES);
        assertThat(Arrays.stream(LockType.values()).filter(LockType::isInLab))
                .containsExactly(LockType.COMBINING, LockType.NUMA_COMBINING);
        for (LockType type : LockType.values()) {
            assertThat(type.isAvailable()).as(type.name()).isEqualTo(!type.isInLab());
            if (type.isInLab()) {
                assertThatThrownBy(() -> type.create(context, LockSettings.DEFAULTS, LockProbe.NONE))
                        .as(type.name())
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining(type.name())
                        .hasMessageContaining("dev.wordstats:numa-locks-lab")
                        .hasMessageContaining("NUMA_MCS");
                assertThatThrownBy(() -> type.create(context))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("dev.wordstats:numa-locks-lab");
                assertThat(LockType.parse(type.name())).as("still parses").isEqualTo(type);
            }
        }
        assertThat(LockType.available())
                .containsExactlyElementsOf(Arrays.stream(LockType.values())
                        .filter(type -> !type.isInLab())
                        .toList());
        assertThat(LockType.COMBINING.readsCombiningSettings()).isTrue();
        assertThat(LockType.COMBINING.isLock()).isFalse();
    }

    @Test
    void contextRejectsNoCarriers() {
        assertThatThrownBy(() -> new LockContext(NODES, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("carriers");
        assertThatThrownBy(() -> new LockContext(null, 1)).isInstanceOf(NullPointerException.class);
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
}
