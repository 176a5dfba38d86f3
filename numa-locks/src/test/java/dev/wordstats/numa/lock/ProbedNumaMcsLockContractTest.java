package dev.wordstats.numa.lock;

/** {@link LockType#NUMA_MCS} with a {@link CountingProbe} keeps the lock contract. */
class ProbedNumaMcsLockContractTest extends ProbedLockContractTest {

    @Override
    protected LockType type() {
        return LockType.NUMA_MCS;
    }
}
