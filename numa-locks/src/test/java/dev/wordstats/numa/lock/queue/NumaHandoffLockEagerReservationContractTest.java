package dev.wordstats.numa.lock.queue;

import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.QueueLockSettings;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.concurrent.locks.Lock;

/**
 * {@link NumaHandoffLock} with a zero reservation threshold keeps the lock contract: every leader
 * that stops spinning reserves the lock first, so timeouts and interrupts hit reserving leaders and
 * reservations race in-node passes.
 */
class NumaHandoffLockEagerReservationContractTest extends NumaHandoffLockContractTest {

    @Override
    protected Lock newLock(NodeLocator nodes) {
        return TestLocks.lock(
                LockType.NUMA_HANDOFF,
                nodes,
                LockSettings.DEFAULTS.with(new QueueLockSettings(Duration.ZERO)),
                LockProbe.NONE);
    }
}
