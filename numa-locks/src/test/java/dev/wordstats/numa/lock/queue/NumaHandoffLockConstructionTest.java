package dev.wordstats.numa.lock.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.lock.ConcurrencySupport.AssignedNodes;
import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.QueueLockSettings;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a {@link NumaHandoffLock} is built with: its reservation threshold from the settings, its
 * argument checks, its queues, its {@code toString}, and its padded layout. Each mechanism is
 * checked on its own by {@code NumaHandoffLockTest}, in numa-locks-lab, which switches mechanisms
 * off and reads the lab lock's counters.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NumaHandoffLockConstructionTest {

    private static final Duration RESERVE_AFTER = NumaMcsLock.DEFAULT_RESERVE_AFTER;

    /** The carriers a production lock is built for here: the JDK scheduler's. */
    private static final int CARRIERS = CarrierPinning.schedulerParallelism();

    @Test
    void reservationThresholdComesFromTheSettingsAndArgumentsAreChecked() {
        assertThat(((NumaHandoffLock) TestLocks.lock(LockType.NUMA_HANDOFF, NodeLocator.singleNode())).reserveAfter())
                .isEqualTo(Duration.ofMillis(1));
        assertThat(((NumaHandoffLock) TestLocks.lock(
                                LockType.NUMA_HANDOFF,
                                NodeLocator.singleNode(),
                                LockSettings.DEFAULTS.with(new QueueLockSettings(Duration.ofDays(365 * 1000L))),
                                LockProbe.NONE))
                        .reserveAfter())
                .isEqualTo(Duration.ofNanos(Long.MAX_VALUE));
        assertThatThrownBy(() -> new NumaHandoffLock(NodeLocator.singleNode(), RESERVE_AFTER, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new NumaHandoffLock(NodeLocator.singleNode(), Duration.ofNanos(-1), CARRIERS))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new NumaHandoffLock(null, RESERVE_AFTER, CARRIERS))
                .isInstanceOf(NullPointerException.class);
        assertThat(new NumaHandoffLock(NodeLocator.singleNode(), RESERVE_AFTER, CARRIERS).newCondition())
                .isInstanceOf(QueueCondition.class);
        assertThat(new NumaHandoffLock(new AssignedNodes(3), RESERVE_AFTER, CARRIERS).queueCount())
                .isEqualTo(3);
    }

    @Test
    void toStringNamesOwnerAndQueues() throws Exception {
        NumaHandoffLock lock = new NumaHandoffLock(new AssignedNodes(2), RESERVE_AFTER, CARRIERS);
        assertThat(lock.toString()).contains("[Unlocked]", "queues=2");
        lock.lock();
        assertThat(lock.toString())
                .contains("[Locked by thread " + Thread.currentThread().getName() + "]");
        lock.unlock();
    }

    // ---------------------------------------------------------------- layout

    @Test
    void lockStateIsPaddedFromEveryOtherField() {
        NumaMcsLockTest.assertHotFieldsPadded(NumaHandoffLock.class, "state", "NumaHandoffLockFields");
    }

    @Test
    void nodeQueueTailIsPaddedFromEveryOtherField() {
        NumaMcsLockTest.assertHotFieldsPadded(NodeQueue.class, "tail");
    }
}
