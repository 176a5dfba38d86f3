package dev.wordstats.numa.lock;

import dev.wordstats.numa.topology.NodeLocator;

/** Every type's guard from {@link LockType#createGuard} keeps the {@link Guard} contract. */
class UnobservedGuardContractTest extends GuardContractTest {

    @Override
    protected Guard newGuard(LockType type, NodeLocator nodes) {
        return type.createGuard(nodes);
    }
}
