package dev.wordstats.numa.lock.queue;

import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.ProbedLockContractTest;
import dev.wordstats.numa.lock.ReadWriteGuards;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.lock.probe.CountingProbe;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * The write lock of {@link LockType#NUMA_RW} built with a {@link CountingProbe} for its write holds keeps
 * the lock contract, its conditions included (the contract takes no read holds, so no read probe).
 */
class ProbedNumaRwWriteLockContractTest extends ProbedLockContractTest {

    @Override
    protected LockType type() {
        return LockType.NUMA_RW;
    }

    @Override
    protected Lock newLock(NodeLocator nodes) {
        Guard guard = ReadWriteGuards.create(
                type(),
                TestLocks.context(nodes),
                LockSettings.DEFAULTS,
                LockProbe.NONE,
                new CountingProbe(nodes, new CountingTimer()));
        return ((ReadWriteLock) guard).writeLock();
    }
}
