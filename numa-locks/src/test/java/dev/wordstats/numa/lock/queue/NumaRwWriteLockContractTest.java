package dev.wordstats.numa.lock.queue;

import dev.wordstats.numa.lock.LockContractTest;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.Optional;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * The write lock of {@link LockType#NUMA_RW} ({@code ((ReadWriteLock) guard).writeLock()}) keeps the lock
 * contract, its conditions included, with virtual and platform threads; contended tests run it on two
 * simulated nodes, so its writers' queue hands off across nodes.
 */
class NumaRwWriteLockContractTest extends LockContractTest {

    @Override
    protected Lock newLock(NodeLocator nodes) {
        return ((ReadWriteLock) TestLocks.guard(LockType.NUMA_RW, nodes)).writeLock();
    }

    @Override
    protected Optional<HoldCounts> holdCounts() {
        return Optional.of(WRITE_LOCK_HOLDS);
    }

    /** The owner view of NUMA_RW's write lock. */
    static final HoldCounts WRITE_LOCK_HOLDS = new HoldCounts() {
        @Override
        public int holdCount(Lock lock) {
            return ((ReadWriteGuard.WriteLock) lock).getHoldCount();
        }

        @Override
        public boolean isHeldByCurrentThread(Lock lock) {
            return ((ReadWriteGuard.WriteLock) lock).isHeldByCurrentThread();
        }

        @Override
        public boolean isLocked(Lock lock) {
            return ((ReadWriteGuard.WriteLock) lock).isLocked();
        }
    };
}
