package dev.wordstats.numa.lock.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The node of one slow-path acquisition in a per-node MCS queue ({@link NodeQueue}), shared by
 * {@link NumaMcsLock} and {@link NumaHandoffLock}: its thread, the queue it joined, the link to
 * its successor and its status. The statuses up to {@link #CANCELLED} are common to both locks;
 * {@link HandoffNode} adds those of the handoff lock's leaders.
 */
class QueueNode {
    /** Queued behind a predecessor, running or spinning. */
    static final int FOLLOWING = 0;

    /** Queued behind a predecessor and about to park, or parked: a grant must unpark it. */
    static final int FOLLOWING_PARKED = 1;

    /** Granted leadership of its queue by its departing predecessor (NumaHandoffLock: awake). */
    static final int LEADING = 2;

    /** Gave up (timeout or interrupt) before it was granted leadership; final. */
    static final int CANCELLED = 3;

    private static final VarHandle NEXT;
    private static final VarHandle STATUS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            NEXT = lookup.findVarHandle(QueueNode.class, "next", QueueNode.class);
            STATUS = lookup.findVarHandle(QueueNode.class, "status", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Thread thread; // the waiting thread, set at construction
    final int queue; // index of the queue this node joined, set at construction
    private QueueNode next; // volatile, set once by the successor after its tail swap; read by this node's departer
    private int status; // CAS by its thread (-> FOLLOWING_PARKED, -> CANCELLED) and by granters (-> LEADING); volatile

    QueueNode(Thread thread, int queue) {
        this.thread = thread;
        this.queue = queue;
    }

    final QueueNode nextVolatile() {
        return (QueueNode) NEXT.getVolatile(this);
    }

    final void setNextVolatile(QueueNode successor) {
        NEXT.setVolatile(this, successor);
    }

    final int statusVolatile() {
        return (int) STATUS.getVolatile(this);
    }

    final void setStatusVolatile(int value) {
        STATUS.setVolatile(this, value);
    }

    final boolean casStatus(int expect, int update) {
        return STATUS.compareAndSet(this, expect, update);
    }

    /**
     * By the departing leader (or the owner that wakes its successor ahead): makes this follower
     * its queue's leader, unparking its thread if it parked; false if it was cancelled first.
     */
    final boolean grant() {
        for (; ; ) {
            int s = statusVolatile();
            if (s == CANCELLED) {
                return false;
            }
            if (casStatus(s, LEADING)) {
                if (s == FOLLOWING_PARKED) {
                    LockSupport.unpark(thread);
                }
                return true;
            }
        }
    }

    /** By its thread, still a follower: gives up its place; false if leadership was granted first. */
    final boolean cancelFollowing() {
        for (; ; ) {
            int s = statusVolatile();
            if (s != FOLLOWING && s != FOLLOWING_PARKED) {
                return false;
            }
            if (casStatus(s, CANCELLED)) {
                return true;
            }
        }
    }

    /**
     * Waits for the link a successor is about to store after its tail swap: it cannot block in
     * between, so this is short; after {@code spins} onSpinWait rounds it yields, since the linking
     * thread may be on this carrier's waiting list.
     */
    final QueueNode awaitNext(int spins) {
        QueueNode n;
        while ((n = nextVolatile()) == null) {
            if (spins > 0) {
                spins--;
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
        return n;
    }
}
