package dev.wordstats.numa.lock.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Queue node of one slow-path acquisition of a {@link NumaHandoffLock}: a {@link QueueNode} whose
 * leader says when it is due and where it runs, and which can be passed the lock.
 */
final class HandoffNode extends QueueNode {
    /** A leader, awake: granted (QueueNode.LEADING), or woken from LEADER_PARKED. */
    static final int SPINNING = LEADING;

    /** A leader that published itself parked: a waker CASes it back to SPINNING and unparks it. */
    static final int LEADER_PARKED = 4;

    /** Owns the lock: took the word itself, or was passed it by a releasing owner; final. */
    static final int OWNER = 5;

    private static final VarHandle LEADER_SINCE;
    private static final VarHandle DUE;
    private static final VarHandle RUN_NODE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            LEADER_SINCE = lookup.findVarHandle(HandoffNode.class, "leaderSince", long.class);
            DUE = lookup.findVarHandle(HandoffNode.class, "due", boolean.class);
            RUN_NODE = lookup.findVarHandle(HandoffNode.class, "runNode", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    boolean passed; // by its own thread only: it was passed the lock (the passer woke its successor)
    private boolean due; // opaque, by its own thread as leader once it has led passAfterNanos; read opaque by releasers
    private long leaderSince; // opaque, by whoever makes it leader (before the status CAS); read opaque by releasers
    private int runNode = -1; // opaque, by its own thread as leader (REMOTE_TURN): where it runs; read by releasers

    HandoffNode(Thread thread, int queue) {
        super(thread, queue);
    }

    boolean dueOpaque() {
        return (boolean) DUE.getOpaque(this);
    }

    void setDueOpaque(boolean value) {
        DUE.setOpaque(this, value);
    }

    int runNodeOpaque() {
        return (int) RUN_NODE.getOpaque(this);
    }

    void setRunNodeOpaque(int node) {
        RUN_NODE.setOpaque(this, node);
    }

    long leaderSinceOpaque() {
        return (long) LEADER_SINCE.getOpaque(this);
    }

    void setLeaderSinceOpaque(long nanoTime) {
        LEADER_SINCE.setOpaque(this, nanoTime);
    }
}
