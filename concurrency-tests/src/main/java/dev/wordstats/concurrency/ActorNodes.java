package dev.wordstats.concurrency;

import dev.wordstats.numa.topology.NodeLocator;

/**
 * Two simulated NUMA nodes for jcstress actors: each actor says which node it runs on before it
 * takes the lock, so a test can put its actors on one node (one MCS queue) or on two (two queue
 * leaders competing for the global flag).
 */
public final class ActorNodes implements NodeLocator {

    /** The two nodes. */
    public static final ActorNodes TWO_NODES = new ActorNodes();

    private static final ThreadLocal<int[]> NODE = ThreadLocal.withInitial(() -> new int[1]);

    private ActorNodes() {}

    /** Puts the calling actor thread on {@code node} (0 or 1). */
    public static void runOn(int node) {
        NODE.get()[0] = node;
    }

    @Override
    public int nodeCount() {
        return 2;
    }

    @Override
    public int currentNode() {
        return NODE.get()[0];
    }
}
