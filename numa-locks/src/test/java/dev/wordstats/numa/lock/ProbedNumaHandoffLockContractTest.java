package dev.wordstats.numa.lock;

/** {@link LockType#NUMA_HANDOFF} through {@link ObservedLock} keeps the lock contract. */
class ObservedNumaHandoffLockContractTest extends ObservedLockContractTest {

    @Override
    protected LockType type() {
        return LockType.NUMA_HANDOFF;
    }
}
