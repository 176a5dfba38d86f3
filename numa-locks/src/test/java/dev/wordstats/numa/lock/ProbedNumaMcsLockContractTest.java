package dev.wordstats.numa.lock;

/** {@link LockType#NUMA_MCS} through {@link ObservedLock} keeps the lock contract. */
class ObservedNumaMcsLockContractTest extends ObservedLockContractTest {

    @Override
    protected LockType type() {
        return LockType.NUMA_MCS;
    }
}
