package dev.wordstats.numa.lock.jdk;

import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.probe.LockProbe;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Supplier;

/**
 * {@link LockType#SYNCHRONIZED}: each critical section runs inside {@code synchronized} on a private
 * monitor, on the caller's thread. It is what most Java code would write, and since JDK 24 (JEP 491)
 * a virtual thread that blocks on a monitor no longer pins its carrier, so it is the baseline every
 * comparison needs. It is not a {@link java.util.concurrent.locks.Lock}: a monitor has no
 * {@code tryLock}, no timed or interruptible entry and no way to release it outside the block that
 * took it, so it offers only the critical-section API.
 */
public final class SynchronizedGuard implements Guard {

    /*
     * Overview
     *
     * Algorithm: the JVM's object monitor (HotSpot on JDK 25: lightweight locking, a CAS on the
     * object's header, inflated to an ObjectMonitor under contention; a contended entrant spins
     * adaptively, then queues and parks). JEP 491 ("Synchronize Virtual Threads without Pinning",
     * JDK 24) lets a virtual thread that blocks in monitor enter (or Object.wait) unmount, so a
     * waiting virtual thread gives its carrier back, as with the Lock types. Still pinned: a monitor
     * entered from a native frame or during class initialization (not the case here).
     *
     * The monitor is a private object, never exposed, so no outside code can synchronize on it and
     * lengthen or deadlock the critical sections.
     *
     * Invariants
     *  - Mutual exclusion, and each critical section sees the writes of the previous ones (monitor
     *    exit happens-before the next enter, JLS 17.4.5).
     *    // checked by GuardContractTest.mutualExclusionKeepsNonAtomicCounterExact
     *  - A critical section's result and its exception or error reach the caller unchanged, and the
     *    monitor is released on every exit (the compiler's exception table exits it).
     *    // checked by GuardContractTest.resultsExceptionsAndErrorsReachTheirCallers
     *  - Reentrant: monitors count recursive entries, so a nested call runs inline.
     *    // checked by GuardContractTest.reentrantCallRunsInlineOnTheSameThread
     *  - Monitor enter is not interruptible: an interrupt leaves the status set and the call waits on.
     *    // checked by GuardContractTest.interruptStaysPendingAndDoesNotBreakTheCall
     *
     * Progress and fairness: blocking and starvation-prone. HotSpot's monitors are not FIFO: an
     * arriving thread may take a just-released monitor ahead of the parked ones (the successor it
     * wakes may lose and park again), so there is no bound on how often a waiter is overtaken.
     *
     * Probe: a monitor cannot say whether its entry waited, so with a probe the guard says what it
     * can see: a call waited when a critical section was running as it arrived (busy, read once at
     * entry). Two accepted races: a call that finds the guard idle may still wait for another that
     * arrived at the same time (reported as not waiting), and one that arrives as a critical section
     * ends may get in at once (reported as waiting). Under steady contention, or none, this agrees
     * with a first attempt. Without a probe none of this runs: call() is the bare synchronized block.
     *
     * Padding: without a probe the guard has no field written after construction; the monitor's
     * state lives in its own object header (or ObjectMonitor). With a probe, busy and runner are
     * written by the holder only, under the monitor.
     */

    private static final VarHandle BUSY;

    static {
        try {
            BUSY = MethodHandles.lookup().findVarHandle(SynchronizedGuard.class, "busy", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Object monitor = new Object(); // never written; its header is the lock word
    private final LockProbe probe; // null without one
    private final boolean hearsFast;
    private final boolean timed;
    private final boolean releaseHeard; // the probe hears the release of a wait (read after a wait only)

    private boolean busy; // with a probe: written (opaque) by the holder at the start and end of an outermost
    // critical section; read (opaque) by every arriving caller
    private Thread runner; // with a probe: plain, holder only: the thread in the outermost critical section

    /** A new guard with its own monitor and no probe. */
    public SynchronizedGuard() {
        this(LockProbe.NONE);
    }

    /** A new guard with its own monitor reporting to {@code probe} ({@link LockProbe#NONE} for none). */
    public SynchronizedGuard(LockProbe probe) {
        this.probe = LockProbe.orNull(probe);
        this.hearsFast = this.probe != null && this.probe.hearsFastPath();
        this.timed = this.probe != null && this.probe.timed();
        this.releaseHeard = this.probe != null && this.probe.hearsReleaseAfterWait();
    }

    @Override
    public <T> T call(Supplier<T> criticalSection) {
        if (probe != null) {
            return callProbed(criticalSection);
        }
        synchronized (monitor) {
            return criticalSection.get();
        }
    }

    @Override
    public void run(Runnable criticalSection) {
        if (probe != null) {
            callProbed(() -> {
                criticalSection.run();
                return null;
            });
            return;
        }
        synchronized (monitor) {
            criticalSection.run();
        }
    }

    private <T> T callProbed(Supplier<T> criticalSection) {
        Thread me = Thread.currentThread();
        boolean arrivedBusy = (boolean) BUSY.getOpaque(this);
        // A wait, unless the holder calls again (runner is its own write then): the probe is asked whether it
        // wants it, at its start (it may begin its own record of the wait there).
        boolean report = arrivedBusy ? runner != me && probe.wantsWaitNow() | hearsFast | timed : hearsFast;
        boolean clocked = timed || arrivedBusy && report;
        long asked = clocked ? System.nanoTime() : 0L;
        long began = 0L;
        long ended = 0L;
        try {
            synchronized (monitor) {
                if (runner == me) {
                    report = false; // reentrant: not another acquisition
                    return criticalSection.get();
                }
                runner = me;
                BUSY.setOpaque(this, true);
                if (report) {
                    began = clocked ? System.nanoTime() : 0L;
                    probe.acquired(arrivedBusy, began - asked);
                }
                try {
                    return criticalSection.get();
                } finally {
                    if (timed) {
                        ended = System.nanoTime();
                    }
                    runner = null;
                    BUSY.setOpaque(this, false);
                }
            }
        } finally {
            if (report && (timed || arrivedBusy && releaseHeard)) {
                // after the monitor exit: recording does not lengthen the critical section
                probe.released(arrivedBusy, began - asked, (timed ? ended : System.nanoTime()) - began);
            }
        }
    }

    @Override
    public String toString() {
        return "SynchronizedGuard@" + Integer.toHexString(System.identityHashCode(this));
    }
}
