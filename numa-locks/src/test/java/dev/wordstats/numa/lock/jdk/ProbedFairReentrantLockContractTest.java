package dev.wordstats.numa.lock.jdk;

import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.ProbedLockContractTest;
import dev.wordstats.numa.lock.probe.CountingProbe;

/** {@link LockType#FAIR_REENTRANT} with a {@link CountingProbe} keeps the lock contract. */
class ProbedFairReentrantLockContractTest extends ProbedLockContractTest {

    @Override
    protected LockType type() {
        return LockType.FAIR_REENTRANT;
    }
}
