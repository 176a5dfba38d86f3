package dev.wordstats.numa.lock.jdk;

import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.ProbedLockContractTest;
import dev.wordstats.numa.lock.probe.CountingProbe;

/** {@link LockType#UNFAIR_REENTRANT} with a {@link CountingProbe} keeps the lock contract. */
class ProbedUnfairReentrantLockContractTest extends ProbedLockContractTest {

    @Override
    protected LockType type() {
        return LockType.UNFAIR_REENTRANT;
    }
}
