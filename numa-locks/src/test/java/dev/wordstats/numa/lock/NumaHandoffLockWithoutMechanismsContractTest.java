package dev.wordstats.numa.lock;

import dev.wordstats.numa.topology.NodeLocator;
import java.util.Set;
import java.util.concurrent.locks.Lock;

/**
 * {@link NumaHandoffLock} with every {@link HandoffMechanism} off (the configuration the benchmarks
 * compare against) keeps the lock contract too: the switches change performance, never correctness.
 */
class NumaHandoffLockWithoutMechanismsContractTest extends NumaHandoffLockContractTest {

    @Override
    protected Lock newLock(NodeLocator nodes) {
        return new NumaHandoffLock(nodes, new HandoffSettings(NumaMcsLock.DEFAULT_RESERVE_AFTER, Set.of()));
    }
}
