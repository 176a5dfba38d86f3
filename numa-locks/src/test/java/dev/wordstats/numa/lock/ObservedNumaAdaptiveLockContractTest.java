package dev.wordstats.numa.lock;

/** {@link LockType#NUMA_ADAPTIVE} through {@link ObservedLock} keeps the lock contract. */
class ObservedNumaAdaptiveLockContractTest extends ObservedLockContractTest {

    @Override
    protected LockType type() {
        return LockType.NUMA_ADAPTIVE;
    }
}
