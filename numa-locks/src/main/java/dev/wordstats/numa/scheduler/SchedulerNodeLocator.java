package dev.wordstats.numa.scheduler;

import dev.wordstats.numa.topology.NodeLocator;

/**
 * The node of the calling thread as its scheduler knows it: when the thread is carried by a
 * {@link NodeCarrierThread} of the owning {@link NodeSchedulers}, the carrier's node (a call to the
 * intrinsic {@code Thread.currentCarrierThread()}, a type check and two field reads); otherwise the
 * fallback locator's answer. Exact for node-affine virtual threads, since they never leave their
 * node's carriers.
 */
final class SchedulerNodeLocator implements NodeLocator {

    private final NodeSchedulers owner;
    private final NodeLocator fallback;

    SchedulerNodeLocator(NodeSchedulers owner, NodeLocator fallback) {
        this.owner = owner;
        this.fallback = fallback;
    }

    @Override
    public int nodeCount() {
        return fallback.nodeCount();
    }

    @Override
    public int currentNode() {
        if (CustomScheduler.currentCarrier() instanceof NodeCarrierThread carrier && carrier.scheduler.owner == owner) {
            return carrier.node;
        }
        return fallback.currentNode();
    }

    @Override
    public String toString() {
        return "SchedulerNodeLocator[nodes=" + nodeCount() + ", fallback=" + fallback + "]";
    }
}
