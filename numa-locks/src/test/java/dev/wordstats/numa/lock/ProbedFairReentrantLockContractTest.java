package dev.wordstats.numa.lock;

/** {@link LockType#FAIR_REENTRANT} through {@link ObservedLock} keeps the lock contract. */
class ObservedFairReentrantLockContractTest extends ObservedLockContractTest {

    @Override
    protected LockType type() {
        return LockType.FAIR_REENTRANT;
    }
}
