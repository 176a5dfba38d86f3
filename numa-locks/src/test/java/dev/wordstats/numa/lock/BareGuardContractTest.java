package dev.wordstats.numa.lock;

import dev.wordstats.numa.topology.NodeLocator;

/** Every type's guard built without a probe keeps the {@link Guard} contract. */
class BareGuardContractTest extends GuardContractTest {

    @Override
    protected Guard newGuard(LockType type, NodeLocator nodes) {
        return TestLocks.guard(type, nodes);
    }
}
