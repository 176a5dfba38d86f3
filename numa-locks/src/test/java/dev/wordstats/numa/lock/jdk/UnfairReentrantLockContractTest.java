package dev.wordstats.numa.lock.jdk;

import dev.wordstats.numa.lock.LockContractTest;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.Optional;
import java.util.concurrent.locks.Lock;

/** {@link LockType#UNFAIR_REENTRANT} keeps the lock contract. */
class UnfairReentrantLockContractTest extends LockContractTest {

    @Override
    protected Lock newLock(NodeLocator nodes) {
        return TestLocks.lock(LockType.UNFAIR_REENTRANT, nodes);
    }

    @Override
    protected Optional<HoldCounts> holdCounts() {
        return Optional.of(REENTRANT_LOCK_HOLDS);
    }
}
