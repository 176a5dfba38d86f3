package dev.wordstats.numa.lock.queue;

import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.ProbedLockContractTest;
import dev.wordstats.numa.lock.probe.CountingProbe;

/** {@link LockType#NUMA_HANDOFF} with a {@link CountingProbe} keeps the lock contract. */
class ProbedNumaHandoffLockContractTest extends ProbedLockContractTest {

    @Override
    protected LockType type() {
        return LockType.NUMA_HANDOFF;
    }
}
