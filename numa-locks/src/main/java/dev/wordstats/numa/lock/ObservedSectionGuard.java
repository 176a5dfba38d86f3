package dev.wordstats.numa.lock;

import dev.wordstats.numa.topology.NodeLocator;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The {@link ObservedGuard} of a type that is not a {@link java.util.concurrent.locks.Lock}
 * ({@link LockType#SYNCHRONIZED}, the delegating types): it wraps each critical section handed to
 * the guard it observes, so it needs nothing from that guard but the {@link Guard} contract, and
 * counts correctly whichever thread runs the critical section.
 *
 * <p>What it measures:
 * <ul>
 *   <li><b>fast / slow path</b>: a call is <em>slow</em> when the guard was busy (a critical section
 *       of it was running) at the moment the call arrived, <em>fast</em> when it was idle. This is
 *       read from one flag at entry, not from the guard's internals, so it is an estimate of
 *       "had to wait" with two accepted races: a call that finds the guard idle may still wait for
 *       another that arrived at the same time (counted fast), and a call that arrives just as a
 *       critical section ends may get in at once (counted slow). Under steady contention, or with
 *       none, it agrees with the Lock types' first-attempt count.
 *   <li><b>handoffs</b>: the node of the thread that <em>runs</em> the critical section, compared
 *       with the node of the one that ran the previous one. For a delegating type that thread may
 *       be the current lock holder, not the caller: the data moves with the thread that touches
 *       it, which is what the count is about.
 *   <li><b>wait</b>: from the entry of {@code call} on the caller's thread to the start of its
 *       critical section, on whichever thread that runs; <b>hold</b>: from that start to the end of
 *       the critical section. Both come from {@link System#nanoTime()}, which is one clock for every
 *       thread of the JVM, and are recorded on the caller's thread after {@code call} returns
 *       (or throws), outside the critical section.
 * </ul>
 */
final class ObservedSectionGuard implements ObservedGuard {

    /*
     * Overview
     *
     * Each outermost call wraps the caller's critical section in observe(), which the observed
     * guard runs under its mutual exclusion. All counting happens inside it, so every counter and
     * every owner-only field is written by one thread at a time and ordered between successive
     * critical sections by the guard itself (the Guard contract's happens-before edge), as in
     * ObservedLock. The caller's part, outside the guard, is one opaque read of busy at entry and,
     * when timed, two clock reads and one small allocation (the Timing record).
     *
     * Invariants
     *  - fast + slow = outermost calls, whatever the critical sections return or throw.
     *    // checked by ObservedGuardContractTest.afterLoad, run after each load of GuardContractTest
     *    // (e.g. resultsExceptionsAndErrorsReachTheirCallers), and uncontendedCallsAreFastAndStayOnTheNode
     *  - sameNode + crossNode = acquisitions - 1 (the first has no predecessor).
     *    // checked by ObservedGuardContractTest.afterLoad and
     *    // ObservedGuardContractTest.turnsBetweenThreadsOnAlternatingNodesAreAllCrossNodeHandoffs
     *  - A reentrant call (runner == current thread inside observe) is run as it is: no count, no
     *    timing record. // checked by ObservedGuardContractTest.nestedCallsAreOneAcquisitionWithOneRecordEach
     *  - A call that arrives while a critical section runs counts as slow.
     *    // checked by ObservedGuardContractTest.callArrivingWhileBusyTakesTheSlowPathAndIsTimed
     *
     * Memory modes: busy and the counters are written with setOpaque by the thread running a
     * critical section and read with getOpaque by any thread (callers at entry, stats()), so a
     * reader never sees a torn value; opaque is enough because readers only want a recent value and
     * the writers are already ordered by the guard. runner and lastNode are plain, owner-only.
     */

    private static final VarHandle FAST;
    private static final VarHandle SLOW;
    private static final VarHandle SAME_NODE;
    private static final VarHandle CROSS_NODE;
    private static final VarHandle BUSY;
    private static final VarHandle BY_NODE = MethodHandles.arrayElementVarHandle(long[].class);

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            FAST = lookup.findVarHandle(ObservedSectionGuard.class, "fast", long.class);
            SLOW = lookup.findVarHandle(ObservedSectionGuard.class, "slow", long.class);
            SAME_NODE = lookup.findVarHandle(ObservedSectionGuard.class, "sameNode", long.class);
            CROSS_NODE = lookup.findVarHandle(ObservedSectionGuard.class, "crossNode", long.class);
            BUSY = lookup.findVarHandle(ObservedSectionGuard.class, "busy", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Guard guard;
    private final NodeLocator nodes;
    private final LockTimer timer;
    private final boolean timed;

    private boolean busy; // written (opaque) by the runner: true at the start of an outermost section, false at
    // its end; read (opaque) by every arriving caller
    private long fast; // written (opaque) by the runner for a caller that found busy false; read by stats()
    private long slow; // written (opaque) by the runner for a caller that found busy true; read by stats()
    private long sameNode; // written (opaque) by the runner when the previous runner was on its node; read by stats()
    private long crossNode; // written (opaque) by the runner when the previous runner was elsewhere; read by stats()

    private final long[]
            byNode; // [i] written (opaque) by the runner of a section on node i; read by acquisitionsByNode()

    private Thread runner; // plain, owner only: the thread running the outermost critical section, else null
    private int lastNode = -1; // plain, owner only: node of the previous runner, -1 before the first

    ObservedSectionGuard(Guard guard, NodeLocator nodes, LockTimer timer) {
        this.guard = Objects.requireNonNull(guard, "guard");
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        this.timer = Objects.requireNonNull(timer, "timer");
        this.timed = timer != LockTimer.NONE;
        this.byNode = new long[nodes.nodeCount()];
    }

    @Override
    public long[] acquisitionsByNode() {
        long[] copy = new long[byNode.length];
        for (int i = 0; i < copy.length; i++) {
            copy[i] = (long) BY_NODE.getOpaque(byNode, i);
        }
        return copy;
    }

    @Override
    public <T> T call(Supplier<T> criticalSection) {
        Objects.requireNonNull(criticalSection, "criticalSection");
        boolean arrivedBusy = (boolean) BUSY.getOpaque(this);
        if (!timed) {
            return guard.call(() -> observe(criticalSection, arrivedBusy, null));
        }
        Timing timing = new Timing(System.nanoTime());
        try {
            return guard.call(() -> observe(criticalSection, arrivedBusy, timing));
        } finally {
            // The guard's edge from the end of the critical section to the return of call makes
            // the runner's writes to timing visible here.
            if (timing.ran) {
                timer.recordWait(timing.began - timing.asked, arrivedBusy);
                timer.recordHold(timing.ended - timing.began);
            }
        }
    }

    @Override
    public LockType type() {
        return guard.type();
    }

    @Override
    public LockStats stats() {
        return new LockStats(
                (long) FAST.getOpaque(this), (long) SLOW.getOpaque(this), (long) SAME_NODE.getOpaque(this), (long)
                        CROSS_NODE.getOpaque(this));
    }

    /** Runs under the observed guard's mutual exclusion, on whichever thread it chooses. */
    private <T> T observe(Supplier<T> criticalSection, boolean arrivedBusy, Timing timing) {
        Thread me = Thread.currentThread();
        if (runner == me) {
            return criticalSection.get(); // reentrant: inside the outermost one, not another acquisition
        }
        runner = me;
        BUSY.setOpaque(this, true);
        if (arrivedBusy) {
            SLOW.setOpaque(this, slow + 1);
        } else {
            FAST.setOpaque(this, fast + 1);
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
        if (node >= 0 && node < byNode.length) {
            BY_NODE.setOpaque(byNode, node, byNode[node] + 1);
        }
        long began = timing == null ? 0L : System.nanoTime();
        try {
            return criticalSection.get();
        } finally {
            if (timing != null) {
                timing.began = began;
                timing.ended = System.nanoTime();
                timing.ran = true;
            }
            runner = null;
            BUSY.setOpaque(this, false);
        }
    }

    @Override
    public String toString() {
        return "ObservedSectionGuard[" + guard.type() + ", " + stats() + ", " + guard + "]";
    }

    /** The clock reads of one timed call: asked by the caller, began/ended by the runner. */
    private static final class Timing {
        final long asked;
        long began; // plain: written by the runner, read by the caller after call returns
        long ended; // plain: as began
        boolean ran; // plain: as began; false if the guard threw before running the critical section

        Timing(long asked) {
            this.asked = asked;
        }
    }
}
