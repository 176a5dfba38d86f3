package dev.wordstats.numa.lock;

/** {@link LockType#NUMA_HANDOFF} with a {@link CountingProbe} keeps the lock contract. */
class ProbedNumaHandoffLockContractTest extends ProbedLockContractTest {

    @Override
    protected LockType type() {
        return LockType.NUMA_HANDOFF;
    }
}
