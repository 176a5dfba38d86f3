package dev.wordstats.numa.lock.queue;

import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.ProbedLockContractTest;
import dev.wordstats.numa.lock.probe.CountingProbe;

/** {@link LockType#NUMA_MCS} with a {@link CountingProbe} keeps the lock contract. */
class ProbedNumaMcsLockContractTest extends ProbedLockContractTest {

    @Override
    protected LockType type() {
        return LockType.NUMA_MCS;
    }
}
