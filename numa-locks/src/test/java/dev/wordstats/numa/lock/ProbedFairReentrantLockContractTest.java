package dev.wordstats.numa.lock;

/** {@link LockType#FAIR_REENTRANT} with a {@link CountingProbe} keeps the lock contract. */
class ProbedFairReentrantLockContractTest extends ProbedLockContractTest {

    @Override
    protected LockType type() {
        return LockType.FAIR_REENTRANT;
    }
}
