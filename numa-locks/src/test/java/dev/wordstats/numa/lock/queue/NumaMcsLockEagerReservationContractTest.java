package dev.wordstats.numa.lock.queue;

import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.concurrent.locks.Lock;

/**
 * {@link NumaMcsLock} with a zero reservation threshold keeps the lock contract: every leader that
 * parks reserves the lock first, so the storm's timeouts and interrupts hit reserving leaders.
 */
class NumaMcsLockEagerReservationContractTest extends NumaMcsLockContractTest {

    @Override
    protected Lock newLock(NodeLocator nodes) {
        return new NumaMcsLock(nodes, Duration.ZERO);
    }
}
