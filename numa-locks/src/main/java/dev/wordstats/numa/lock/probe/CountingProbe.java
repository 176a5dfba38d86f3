package dev.wordstats.numa.lock.probe;

import dev.wordstats.numa.topology.NodeLocator;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Objects;

/**
 * A {@link LockProbe} that counts what one lock reports: acquisitions by path (fast or slow) and by the
 * node of the thread that took the lock, handoffs by locality (the previous holder on the same node or
 * another), reservations, combining batches and mode switches; and, with a {@link LockTimer}, passes
 * each acquisition's wait and hold times on to it.
 *
 * <p>One probe per lock: the handoff count compares each holder's node with the previous holder's, which
 * the probe remembers. Counting adds no shared write beyond the lock's own: the acquisition counters are
 * written only in {@link #acquired}, which the lock calls with the lock held, so the lock orders the
 * writes. {@link #stats()} may be called by any thread at any time; it reads each counter atomically,
 * but the counters together are not one instant (a scrape may see one acquisition in one counter only).
 */
public final class CountingProbe implements LockProbe {

    /*
     * Memory modes (see package-info): the acquisition counters and byNode are written with setOpaque
     * by the holder only (inside acquired) and read with getOpaque by any thread, so a reader never
     * sees a torn long; opaque is enough because readers want a recent value and the writers are
     * already ordered by the lock. lastNode is plain and holder-only. The decision counters
     * (reservations, batches, switches) are reported by threads that need not hold the lock, possibly
     * at the same time, so they are added to atomically; they are rare (one per slow decision).
     */

    private static final VarHandle FAST;
    private static final VarHandle SLOW;
    private static final VarHandle SAME_NODE;
    private static final VarHandle CROSS_NODE;
    private static final VarHandle RESERVATIONS;
    private static final VarHandle BATCHES;
    private static final VarHandle BATCHED;
    private static final VarHandle SWITCHES;
    private static final VarHandle BY_NODE = MethodHandles.arrayElementVarHandle(long[].class);

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            FAST = lookup.findVarHandle(CountingProbe.class, "fast", long.class);
            SLOW = lookup.findVarHandle(CountingProbe.class, "slow", long.class);
            SAME_NODE = lookup.findVarHandle(CountingProbe.class, "sameNode", long.class);
            CROSS_NODE = lookup.findVarHandle(CountingProbe.class, "crossNode", long.class);
            RESERVATIONS = lookup.findVarHandle(CountingProbe.class, "reservations", long.class);
            BATCHES = lookup.findVarHandle(CountingProbe.class, "batches", long.class);
            BATCHED = lookup.findVarHandle(CountingProbe.class, "batched", long.class);
            SWITCHES = lookup.findVarHandle(CountingProbe.class, "switches", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final NodeLocator nodes;
    private final LockTimer timer;
    private final boolean timed;

    private long fast; // written (opaque) by the holder after an acquisition that did not wait; read by stats()
    private long slow; // written (opaque) by the holder after an acquisition that waited; read by stats()
    private long sameNode; // written (opaque) by the holder when the previous holder ran on its node; read by stats()
    private long crossNode; // written (opaque) by the holder when the previous holder ran elsewhere; read by stats()
    private final long[] byNode; // [i] written (opaque) by a holder on node i; read by acquisitionsByNode()
    private int lastNode = -1; // plain, holder only: node of the previous holder, -1 before the first

    private long reservations; // getAndAdd by the leader that reserved; read (opaque) by reservations()
    private long batches; // getAndAdd by a combiner letting go; read (opaque) by batches()
    private long batched; // getAndAdd by a combiner letting go (its batch size); read (opaque) by batchedSections()
    private long switches; // getAndAdd by the thread that switched mode; read (opaque) by modeSwitches()

    /** Counts, without timing: the lock then reads no clock on its fast path. */
    public CountingProbe(NodeLocator nodes) {
        this(nodes, LockTimer.NONE);
    }

    /**
     * Counts, and passes wait and hold times on to {@code timer} ({@link LockTimer#NONE}: no timing, no
     * clock reads on the fast path).
     */
    public CountingProbe(NodeLocator nodes, LockTimer timer) {
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        this.timer = Objects.requireNonNull(timer, "timer");
        this.timed = timer != LockTimer.NONE;
        this.byNode = new long[nodes.nodeCount()];
    }

    @Override
    public boolean timed() {
        return timed;
    }

    @Override
    public void acquired(boolean waited, long waitNanos) {
        if (waited) {
            SLOW.setOpaque(this, slow + 1);
        } else {
            FAST.setOpaque(this, fast + 1);
        }
        int node = nodes.currentNode();
        int last = lastNode;
        if (last >= 0) {
            if (node == last) {
                SAME_NODE.setOpaque(this, sameNode + 1);
            } else {
                CROSS_NODE.setOpaque(this, crossNode + 1);
            }
        }
        lastNode = node;
        if (node >= 0 && node < byNode.length) {
            BY_NODE.setOpaque(byNode, node, byNode[node] + 1);
        }
    }

    @Override
    public void released(boolean waited, long waitNanos, long holdNanos) {
        timer.recordWait(waitNanos, waited);
        timer.recordHold(holdNanos);
    }

    @Override
    public void reserved(int node) {
        RESERVATIONS.getAndAdd(this, 1L);
    }

    @Override
    public void combined(int size, long nanos) {
        BATCHES.getAndAdd(this, 1L);
        BATCHED.getAndAdd(this, (long) size);
    }

    @Override
    public void modeSwitched(boolean queued) {
        SWITCHES.getAndAdd(this, 1L);
    }

    /** What this probe has counted so far: acquisitions by path and handoffs by locality. */
    public LockStats stats() {
        return new LockStats(
                (long) FAST.getOpaque(this), (long) SLOW.getOpaque(this), (long) SAME_NODE.getOpaque(this), (long)
                        CROSS_NODE.getOpaque(this));
    }

    /** Acquisitions so far by the node of the thread that took the lock ({@code [i]}: node {@code i}). */
    public long[] acquisitionsByNode() {
        long[] copy = new long[byNode.length];
        for (int i = 0; i < copy.length; i++) {
            copy[i] = (long) BY_NODE.getOpaque(byNode, i);
        }
        return copy;
    }

    /** Reservations taken so far ({@link LockProbe#reserved}). */
    public long reservations() {
        return (long) RESERVATIONS.getOpaque(this);
    }

    /** Combining batches so far ({@link LockProbe#combined}). */
    public long batches() {
        return (long) BATCHES.getOpaque(this);
    }

    /** Waiters' critical sections run in combining batches so far, summed over the batches. */
    public long batchedSections() {
        return (long) BATCHED.getOpaque(this);
    }

    /** Mode switches so far ({@link LockProbe#modeSwitched}). */
    public long modeSwitches() {
        return (long) SWITCHES.getOpaque(this);
    }

    /** The field-wise sum of the {@link #stats()} of {@code probes} (of the stripes of one store, say). */
    public static LockStats total(Iterable<CountingProbe> probes) {
        LockStats sum = LockStats.ZERO;
        for (CountingProbe probe : probes) {
            sum = sum.plus(probe.stats());
        }
        return sum;
    }

    /** The element-wise sum of the {@link #acquisitionsByNode()} of {@code probes}. */
    public static long[] totalByNode(Iterable<CountingProbe> probes) {
        long[] sum = new long[0];
        for (CountingProbe probe : probes) {
            long[] byNode = probe.acquisitionsByNode();
            if (sum.length < byNode.length) {
                sum = Arrays.copyOf(sum, byNode.length);
            }
            for (int i = 0; i < byNode.length; i++) {
                sum[i] += byNode[i];
            }
        }
        return sum;
    }

    @Override
    public String toString() {
        return "CountingProbe[" + stats() + "]";
    }
}
