package dev.wordstats.numa.lock;

/** {@link LockType#UNFAIR_REENTRANT} through {@link ObservedLock} keeps the lock contract. */
class ObservedUnfairReentrantLockContractTest extends ObservedLockContractTest {

    @Override
    protected LockType type() {
        return LockType.UNFAIR_REENTRANT;
    }
}
