package dev.wordstats.numa.topology;

/**
 * Tells which NUMA node the calling thread runs on, as an index in {@code [0, nodeCount())}.
 *
 * <p>The answer is a hint: a virtual thread may move to another carrier right after asking, and a
 * carrier may be moved to another CPU by the OS unless it is pinned. Locks use it to keep handoffs
 * on one node, so a stale answer costs locality, never correctness.
 *
 * <p>Implementations must be thread-safe and cheap: locks call {@link #currentNode()} on their slow
 * path, once per acquisition.
 */
public interface NodeLocator {

    /** The number of nodes, at least 1; fixed for the life of the locator. */
    int nodeCount();

    /** The node of the calling thread, in {@code [0, nodeCount())}. */
    int currentNode();

    /** A locator for a machine of one node: always node 0. */
    static NodeLocator singleNode() {
        return SingleNode.INSTANCE;
    }

    /** The single-node locator: no native call, no state. */
    enum SingleNode implements NodeLocator {
        INSTANCE;

        @Override
        public int nodeCount() {
            return 1;
        }

        @Override
        public int currentNode() {
            return 0;
        }
    }
}
