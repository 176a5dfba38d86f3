package dev.wordstats.numa.lock;

import dev.wordstats.numa.topology.NodeLocator;
import java.util.Objects;

/**
 * What the locks need to know of the machine they run on: which node a thread is on, and how many
 * carriers the virtual-thread scheduler has (a lock lets at most {@code carriers - 1} waiters spin, so
 * a spinner never holds the carrier an owner needs). The NUMA set-up of a process provides both.
 *
 * @param nodes    the node of the calling thread
 * @param carriers the virtual-thread scheduler's parallelism, at least 1
 */
public record LockContext(NodeLocator nodes, int carriers) {

    public LockContext {
        Objects.requireNonNull(nodes, "nodes");
        if (carriers < 1) {
            throw new IllegalArgumentException("carriers must be at least 1, was " + carriers);
        }
    }
}
