package dev.wordstats.numa.lock.queue;

import dev.wordstats.numa.lock.LockContractTest;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.Optional;
import java.util.concurrent.locks.Lock;

/** {@link LockType#NUMA_MCS} keeps the lock contract; contended tests run it on two simulated nodes. */
class NumaMcsLockContractTest extends LockContractTest {

    @Override
    protected Lock newLock(NodeLocator nodes) {
        return TestLocks.lock(LockType.NUMA_MCS, nodes);
    }

    @Override
    protected Optional<HoldCounts> holdCounts() {
        return Optional.of(new HoldCounts() {
            @Override
            public int holdCount(Lock lock) {
                return ((NumaMcsLock) lock).getHoldCount();
            }

            @Override
            public boolean isHeldByCurrentThread(Lock lock) {
                return ((NumaMcsLock) lock).isHeldByCurrentThread();
            }

            @Override
            public boolean isLocked(Lock lock) {
                return ((NumaMcsLock) lock).isLocked();
            }
        });
    }
}
