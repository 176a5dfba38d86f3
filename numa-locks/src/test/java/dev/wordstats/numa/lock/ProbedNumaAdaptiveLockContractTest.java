package dev.wordstats.numa.lock;

/** {@link LockType#NUMA_ADAPTIVE} with a {@link CountingProbe} keeps the lock contract. */
class ProbedNumaAdaptiveLockContractTest extends ProbedLockContractTest {

    @Override
    protected LockType type() {
        return LockType.NUMA_ADAPTIVE;
    }
}
