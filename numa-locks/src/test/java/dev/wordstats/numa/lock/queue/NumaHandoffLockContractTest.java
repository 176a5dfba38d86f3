package dev.wordstats.numa.lock.queue;

import dev.wordstats.numa.lock.LockContractTest;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.Optional;
import java.util.concurrent.locks.Lock;

/**
 * {@link LockType#NUMA_HANDOFF} keeps the lock contract with virtual and platform threads; contended
 * tests run it on two simulated nodes, so in-node passes, wake-ahead grants and cross-node releases
 * all happen.
 */
class NumaHandoffLockContractTest extends LockContractTest {

    @Override
    protected Lock newLock(NodeLocator nodes) {
        return TestLocks.lock(LockType.NUMA_HANDOFF, nodes);
    }

    @Override
    protected Optional<HoldCounts> holdCounts() {
        return Optional.of(new HoldCounts() {
            @Override
            public int holdCount(Lock lock) {
                return ((NumaHandoffLock) lock).getHoldCount();
            }

            @Override
            public boolean isHeldByCurrentThread(Lock lock) {
                return ((NumaHandoffLock) lock).isHeldByCurrentThread();
            }

            @Override
            public boolean isLocked(Lock lock) {
                return ((NumaHandoffLock) lock).isLocked();
            }
        });
    }
}
