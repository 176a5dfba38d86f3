package dev.wordstats.numa.lock;

import dev.wordstats.numa.topology.NodeLocator;
import java.util.Optional;
import java.util.concurrent.locks.Lock;

/**
 * {@link LockType#NUMA_ADAPTIVE} keeps the lock contract with virtual and platform threads. The
 * contended tests turn it queued (waiters parked past the starving bound, windows of contended
 * acquisitions) and back, so both modes and the switches between them run under the contract.
 */
class NumaAdaptiveLockContractTest extends LockContractTest {

    @Override
    protected Lock newLock(NodeLocator nodes) {
        return TestLocks.lock(LockType.NUMA_ADAPTIVE, nodes);
    }

    @Override
    protected Optional<HoldCounts> holdCounts() {
        return Optional.of(new HoldCounts() {
            @Override
            public int holdCount(Lock lock) {
                return ((NumaAdaptiveLock) lock).getHoldCount();
            }

            @Override
            public boolean isHeldByCurrentThread(Lock lock) {
                return ((NumaAdaptiveLock) lock).isHeldByCurrentThread();
            }

            @Override
            public boolean isLocked(Lock lock) {
                return ((NumaAdaptiveLock) lock).isLocked();
            }
        });
    }
}
