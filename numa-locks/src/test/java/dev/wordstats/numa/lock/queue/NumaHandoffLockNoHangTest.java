package dev.wordstats.numa.lock.queue;

import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.concurrent.locks.Lock;

/**
 * More spinning candidates than carriers must not hang {@link NumaHandoffLock} either: every node
 * leader may be awake (woken ahead) while the owner yields inside its critical section. A leader
 * spins only while the owner runs, at most {@code carriers - 1} spin, and every spin is bounded,
 * so the owner always gets a carrier back.
 */
class NumaHandoffLockNoHangTest extends NumaMcsLockNoHangTest {

    @Override
    protected Lock newLock(NodeLocator nodes) {
        return TestLocks.lock(LockType.NUMA_HANDOFF, nodes);
    }
}
