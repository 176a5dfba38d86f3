package dev.wordstats.numa.lock.queue;

import dev.wordstats.numa.carrier.CarrierPinning;
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
        return new NumaHandoffLockLab(
                nodes, NumaMcsLock.DEFAULT_RESERVE_AFTER, CarrierPinning.schedulerParallelism(), Set.of());
    }
}
