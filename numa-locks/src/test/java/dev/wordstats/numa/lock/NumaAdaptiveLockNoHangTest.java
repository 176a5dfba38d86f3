package dev.wordstats.numa.lock;

import dev.wordstats.numa.topology.NodeLocator;
import java.util.concurrent.locks.Lock;

/**
 * More waiting virtual threads than carriers must not hang {@link NumaAdaptiveLock} in either mode: the
 * owner yields inside its critical section, so lean spinners see it not running and park, the lock
 * turns queued, and the queue lock's leaders spin only while the owner runs.
 */
class NumaAdaptiveLockNoHangTest extends NumaMcsLockNoHangTest {

    @Override
    protected Lock newLock(NodeLocator nodes) {
        return new NumaAdaptiveLock(TestLocks.context(nodes));
    }
}
