package dev.wordstats.numa.scheduler;

import dev.wordstats.numa.topology.NodeLocator;
import dev.wordstats.numa.topology.NumaNode;
import dev.wordstats.numa.topology.Topology;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Virtual threads that stay on their NUMA node: one {@link NodeScheduler} per node of a
 * {@link Topology} (real or simulated), a placement policy for threads that do not name a node,
 * and the node lookup that goes with them.
 *
 * <p><b>Per-node mode.</b> Each node has its own pool of carriers, each carrier pinned to the
 * node's CPUs. A virtual thread built for node k hands every continuation step (start, and the
 * resumption after each park, sleep, timed wait or blocking socket read) to node k's pool, so it
 * only ever runs on node k's carriers (checked by {@code NodeSchedulersTest}). Its node is then
 * exact, and {@link #locator(NodeLocator)} answers it with one field read of the current carrier.
 * This needs the JDK-internal builder behind {@link CustomScheduler}; when that is missing or
 * refused, the instance falls back to the default mode and {@link #fallbackReason()} says why.
 *
 * <p><b>Default mode.</b> Every node's threads go to the JDK's default scheduler: placement still
 * spreads threads over the nodes' counters, but a thread may run on any carrier, and the node
 * lookup is the fallback locator's (a cached {@code getcpu}).
 *
 * <p><b>Limits.</b> A virtual thread that pins its carrier (a native call, file I/O, a class
 * initializer) holds one of its node's few carriers for that time: this scheduler does not add
 * carriers to compensate, as the default one does for some of those cases. Virtual threads
 * started from a thread of node k with {@code Thread.ofVirtual()} inherit node k's scheduler (a
 * JDK rule for a builder without a scheduler). {@link #close()} stops the carriers: call it
 * after the threads are done; a thread parked on a closed node cannot resume.
 */
public final class NodeSchedulers implements AutoCloseable {

    private static final long SHUTDOWN_MILLIS = 5_000;

    private final SchedulerMode requested;
    private final SchedulerMode active;
    private final String fallbackReason;
    private final Placement placement;
    private final List<NodeScheduler> nodes;
    private final AtomicInteger cursor = new AtomicInteger(); // round-robin position; getAndIncrement per start

    private NodeSchedulers(
            Topology topology,
            SchedulerMode requested,
            SchedulerMode active,
            String fallbackReason,
            Placement placement,
            int carriersPerNode) {
        this.requested = requested;
        this.active = active;
        this.fallbackReason = fallbackReason;
        this.placement = placement;
        List<NodeScheduler> schedulers = new ArrayList<>();
        for (NumaNode node : topology.nodes()) {
            BitSet cpus = new BitSet();
            node.cpus().forEach(cpus::set);
            int carriers = carriersPerNode > 0
                    ? carriersPerNode
                    : Math.max(1, node.cpus().size());
            schedulers.add(new NodeScheduler(this, node.index(), cpus, carriers, active == SchedulerMode.PER_NODE));
        }
        this.nodes = List.copyOf(schedulers);
    }

    /**
     * Schedulers for the nodes of {@code topology}.
     *
     * @param mode            the mode asked for; {@link SchedulerMode#PER_NODE} falls back to the
     *                        default one when {@link CustomScheduler#available()} is false
     * @param placement       how threads that name no node are spread
     * @param carriersPerNode carriers per node; 0 = as many as the node has CPUs
     */
    public static NodeSchedulers create(
            Topology topology, SchedulerMode mode, Placement placement, int carriersPerNode) {
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(placement, "placement");
        if (carriersPerNode < 0) {
            throw new IllegalArgumentException(
                    "carriersPerNode must be >= 0 (0 = one per CPU), was " + carriersPerNode);
        }
        SchedulerMode active = mode;
        String reason = "";
        if (mode == SchedulerMode.PER_NODE && !CustomScheduler.available()) {
            active = SchedulerMode.DEFAULT;
            reason = CustomScheduler.unavailableReason();
            System.getLogger(NodeSchedulers.class.getName())
                    .log(
                            System.Logger.Level.WARNING,
                            "per-node virtual-thread scheduler unavailable, using the " + "default scheduler: "
                                    + reason);
        }
        return new NodeSchedulers(topology, mode, active, reason, placement, carriersPerNode);
    }

    /** The mode asked for. */
    public SchedulerMode requestedMode() {
        return requested;
    }

    /** The mode in effect: {@link SchedulerMode#DEFAULT} when per-node was asked for but is unavailable. */
    public SchedulerMode activeMode() {
        return active;
    }

    /** Whether threads stay on their node (per-node mode in effect). */
    public boolean perNode() {
        return active == SchedulerMode.PER_NODE;
    }

    /** Why per-node mode fell back to the default scheduler; empty when it did not. */
    public String fallbackReason() {
        return fallbackReason;
    }

    /** The placement policy. */
    public Placement placement() {
        return placement;
    }

    /** The number of nodes. */
    public int nodeCount() {
        return nodes.size();
    }

    /** The scheduler of node {@code node}. */
    public NodeScheduler node(int node) {
        return nodes.get(node);
    }

    /** Every node's scheduler, by index. */
    public List<NodeScheduler> nodes() {
        return nodes;
    }

    /** A new builder of virtual threads on node {@code node} (see {@link NodeScheduler#builder()}). */
    public Thread.Builder.OfVirtual builder(int node) {
        return nodes.get(node).builder();
    }

    /** The node the next thread goes to, by the placement policy. */
    public int nextNode() {
        int n = nodes.size();
        if (n == 1) {
            return 0;
        }
        int start = Math.floorMod(cursor.getAndIncrement(), n);
        if (placement == Placement.ROUND_ROBIN) {
            return start;
        }
        int best = start;
        int bestLoad = nodes.get(start).threadsRunning();
        for (int i = 1; i < n && bestLoad > 0; i++) {
            int k = (start + i) % n;
            int load = nodes.get(k).threadsRunning();
            if (load < bestLoad) {
                best = k;
                bestLoad = load;
            }
        }
        return best;
    }

    /** A factory that puts each new thread on a node chosen by the placement policy. */
    public ThreadFactory placingFactory(String prefix) {
        return task -> nodes.get(nextNode()).newThread(task, prefix);
    }

    /** An executor that runs each task on a new virtual thread on a node chosen by the placement policy. */
    public Executor placingExecutor(String prefix) {
        ThreadFactory factory = placingFactory(prefix);
        return task -> factory.newThread(task).start();
    }

    /**
     * A factory whose threads go to the node of the calling thread: the node of its carrier when
     * the caller runs on one of these schedulers, otherwise a node by the placement policy. For
     * the helpers of a request that must stay on the request's node.
     */
    public ThreadFactory currentNodeFactory(String prefix) {
        return task -> {
            int node = carrierNode();
            return nodes.get(node >= 0 ? node : nextNode()).newThread(task, prefix);
        };
    }

    /**
     * A node lookup that answers from the scheduler: for a thread carried by one of these
     * schedulers' carriers, that carrier's node; for any other thread, {@code fallback}.
     * In default mode that is {@code fallback} itself.
     */
    public NodeLocator locator(NodeLocator fallback) {
        Objects.requireNonNull(fallback, "fallback");
        if (fallback.nodeCount() != nodes.size()) {
            throw new IllegalArgumentException(
                    "the fallback locator has " + fallback.nodeCount() + " nodes, the schedulers " + nodes.size());
        }
        return perNode() && CustomScheduler.carrierVisible() ? new SchedulerNodeLocator(this, fallback) : fallback;
    }

    /** The node of the calling thread's carrier when it is one of ours, else -1. */
    int carrierNode() {
        if (!perNode()) {
            return -1;
        }
        Thread carrier = CustomScheduler.currentCarrier();
        return carrier instanceof NodeCarrierThread c && c.scheduler.owner == this ? c.node : -1;
    }

    /** One line: the mode in effect (and why, when it fell back), the placement, the carriers per node. */
    public String summary() {
        if (active == SchedulerMode.PER_NODE) {
            StringBuilder carriers = new StringBuilder();
            for (NodeScheduler node : nodes) {
                carriers.append(carriers.isEmpty() ? "" : ", ")
                        .append("node")
                        .append(node.node())
                        .append('=')
                        .append(node.parallelism());
            }
            return "per-node ("
                    + placement.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-') + " placement; carriers "
                    + carriers + ")";
        }
        if (requested == SchedulerMode.PER_NODE) {
            return "default (per-node unavailable: " + fallbackReason + ")";
        }
        return "default";
    }

    /** Live carrier threads of every node (for checks that shutdown stopped them). */
    public List<Thread> carrierThreads() {
        List<Thread> all = new ArrayList<>();
        nodes.forEach(n -> all.addAll(n.carrierThreads()));
        return all;
    }

    /**
     * Stops every node's carriers: no new work is accepted, queued steps finish, and the call
     * waits (up to 5 s per node, then interrupts) until the carriers have ended.
     */
    @Override
    public void close() {
        for (NodeScheduler node : nodes) {
            node.shutdown(SHUTDOWN_MILLIS);
        }
    }

    @Override
    public String toString() {
        return "NodeSchedulers[" + summary() + "]";
    }
}
