package dev.wordstats.numa.lock;

import dev.wordstats.numa.topology.NodeLocator;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * A {@link Lock} that counts how it is acquired: fast or slow path, and whether the lock moved
 * between NUMA nodes. Wraps any lock of a {@link LockType}; create one with
 * {@link LockType#createObserved(NodeLocator, LockTimer)}.
 *
 * <p>Counting costs no shared write beyond the lock's own: every counter is written only by the
 * thread that holds the wrapped lock, so the lock itself orders the writes. {@link #stats()} may
 * be called by any thread at any time; it reads each counter atomically but the four counters
 * together are not one instant (a scrape may see one acquisition in one counter only).
 *
 * <p>An unobserved lock (from {@link LockType#create(NodeLocator)}) pays nothing for any of this.
 */
public final class ObservedLock implements Lock {

    /*
     * Memory modes (see package-info): counters are written with setOpaque by the owner only and
     * read with getOpaque by any thread, so a reader never sees a torn long. Owner-only fields
     * (owner, depth, lastNode, heldSince) are plain: the wrapped lock's acquire/release edges
     * order them between successive owners.
     */

    private static final VarHandle FAST;
    private static final VarHandle SLOW;
    private static final VarHandle SAME_NODE;
    private static final VarHandle CROSS_NODE;
    private static final VarHandle BY_NODE = MethodHandles.arrayElementVarHandle(long[].class);

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            FAST = lookup.findVarHandle(ObservedLock.class, "fast", long.class);
            SLOW = lookup.findVarHandle(ObservedLock.class, "slow", long.class);
            SAME_NODE = lookup.findVarHandle(ObservedLock.class, "sameNode", long.class);
            CROSS_NODE = lookup.findVarHandle(ObservedLock.class, "crossNode", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final LockType type;
    private final Lock delegate;
    private final NodeLocator nodes;
    private final LockTimer timer;
    private final boolean timed;

    private long fast; // written (opaque) by the owner after a first-attempt acquisition; read (opaque) by stats()
    private long slow; // written (opaque) by the owner after a waiting acquisition; read (opaque) by stats()
    private long sameNode; // written (opaque) by the owner when the previous owner ran on its node; read by stats()
    private long crossNode; // written (opaque) by the owner when the previous owner ran elsewhere; read by stats()
    private final long[]
            byNode; // [i] written (opaque) by the owner after an acquisition on node i; read by acquisitionsByNode()

    private Thread owner; // written plain by the owner (set after acquire, cleared before release)
    private int depth; // owner only: reentrant hold depth as seen through this wrapper
    private int lastNode = -1; // owner only: node of the most recent owner, -1 before the first
    private long heldSince; // owner only: nanoTime of the outermost acquisition (when timed)
    private long waited; // owner only: wait of the outermost acquisition, recorded after the release
    private boolean waitedSlow; // owner only: whether the outermost acquisition took the slow path

    ObservedLock(LockType type, Lock delegate, NodeLocator nodes, LockTimer timer) {
        this.type = Objects.requireNonNull(type, "type");
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        this.timer = Objects.requireNonNull(timer, "timer");
        this.timed = timer != LockTimer.NONE;
        this.byNode = new long[nodes.nodeCount()];
    }

    /** The type of the wrapped lock. */
    public LockType type() {
        return type;
    }

    /** What this lock has counted so far. */
    public LockStats stats() {
        return new LockStats(
                (long) FAST.getOpaque(this), (long) SLOW.getOpaque(this), (long) SAME_NODE.getOpaque(this), (long)
                        CROSS_NODE.getOpaque(this));
    }

    /** Acquisitions so far by threads on each node (index: node), from the node lookup at each acquisition. */
    public long[] acquisitionsByNode() {
        long[] copy = new long[byNode.length];
        for (int i = 0; i < copy.length; i++) {
            copy[i] = (long) BY_NODE.getOpaque(byNode, i);
        }
        return copy;
    }

    @Override
    public void lock() {
        long start = timed ? System.nanoTime() : 0L;
        boolean fastPath;
        try {
            fastPath = type.tryFast(delegate);
        } catch (InterruptedException e) {
            // lock() is not interruptible: keep the status for the caller and wait as usual.
            Thread.currentThread().interrupt();
            fastPath = false;
        }
        if (!fastPath) {
            delegate.lock();
        }
        acquired(fastPath, start);
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            // Lock's contract: an interrupt pending on entry throws, even when the lock is free.
            throw new InterruptedException();
        }
        long start = timed ? System.nanoTime() : 0L;
        boolean fastPath = type.tryFast(delegate);
        if (!fastPath) {
            delegate.lockInterruptibly();
        }
        acquired(fastPath, start);
    }

    @Override
    public boolean tryLock() {
        long start = timed ? System.nanoTime() : 0L;
        if (!delegate.tryLock()) {
            return false;
        }
        acquired(true, start);
        return true;
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        long start = timed ? System.nanoTime() : 0L;
        boolean fastPath = type.tryFast(delegate);
        if (!fastPath && !delegate.tryLock(time, unit)) {
            return false;
        }
        acquired(fastPath, start);
        return true;
    }

    @Override
    public void unlock() {
        if (owner != Thread.currentThread()) {
            throw new IllegalMonitorStateException(
                    "unlock by a thread that does not hold the lock: " + Thread.currentThread());
        }
        if (--depth == 0) {
            owner = null;
            if (timed) {
                long held = System.nanoTime() - heldSince;
                long wait = waited;
                boolean slowPath = waitedSlow;
                delegate.unlock();
                // Recorded outside the critical section, so timing does not lengthen it.
                timer.recordWait(wait, slowPath);
                timer.recordHold(held);
                return;
            }
        }
        delegate.unlock();
    }

    /** Not supported: see {@link NumaMcsLock#newCondition()}; the observed lock offers none either. */
    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException(
                "ObservedLock offers no conditions; use the lock from LockType.create(...) if its type has them");
    }

    private void acquired(boolean fastPath, long start) {
        if (depth++ == 0) {
            owner = Thread.currentThread();
            if (fastPath) {
                FAST.setOpaque(this, fast + 1);
            } else {
                SLOW.setOpaque(this, slow + 1);
            }
            int node = nodes.currentNode();
            if (lastNode >= 0) {
                if (node == lastNode) {
                    SAME_NODE.setOpaque(this, sameNode + 1);
                } else {
                    CROSS_NODE.setOpaque(this, crossNode + 1);
                }
            }
            lastNode = node;
            if (node < byNode.length) {
                BY_NODE.setOpaque(byNode, node, byNode[node] + 1);
            }
            if (timed) {
                long now = System.nanoTime();
                heldSince = now;
                waited = now - start;
                waitedSlow = !fastPath;
            }
        }
    }

    @Override
    public String toString() {
        return "ObservedLock[" + type + ", " + stats() + ", " + delegate + "]";
    }
}
