package dev.wordstats.numa.lock;

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
     * Padding: the guard has no field written after construction; the monitor's state lives in its
     * own object header (or ObjectMonitor), so nothing here shares a line with a written field.
     */

    private final Object monitor = new Object(); // never written; its header is the lock word

    /** A new guard with its own monitor; {@link LockType#createGuard} is the usual way to get one. */
    public SynchronizedGuard() {}

    @Override
    public <T> T call(Supplier<T> criticalSection) {
        synchronized (monitor) {
            return criticalSection.get();
        }
    }

    @Override
    public void run(Runnable criticalSection) {
        synchronized (monitor) {
            criticalSection.run();
        }
    }

    @Override
    public LockType type() {
        return LockType.SYNCHRONIZED;
    }

    @Override
    public String toString() {
        return "SynchronizedGuard@" + Integer.toHexString(System.identityHashCode(this));
    }
}
