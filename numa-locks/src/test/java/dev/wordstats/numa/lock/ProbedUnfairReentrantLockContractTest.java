package dev.wordstats.numa.lock;

/** {@link LockType#UNFAIR_REENTRANT} with a {@link CountingProbe} keeps the lock contract. */
class ProbedUnfairReentrantLockContractTest extends ProbedLockContractTest {

    @Override
    protected LockType type() {
        return LockType.UNFAIR_REENTRANT;
    }
}
