package dev.wordstats.numa.lock.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Date;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;

/**
 * The {@link Condition} of {@link NumaMcsLock}, {@link NumaHandoffLock} and the write lock of
 * {@link NumaRwLock}: a FIFO queue of waiters kept under the lock itself, as the JDK's
 * {@code AbstractQueuedSynchronizer.ConditionObject} keeps it. A waiter joins the queue while it holds
 * the lock, releases every hold (saving the count), parks until it is signalled, interrupted or timed
 * out, then takes the lock again through the lock's own {@code lock()} (so it queues, reserves and is
 * handed the lock as any other caller) and restores its hold count before it returns or throws. The
 * lock is seen through an {@link Owner}: the owner check, the full release and the reacquisition.
 *
 * <p>Each waiter's status leaves WAITING once, by CAS: to SIGNALLED by a signaller, or to
 * CANCELLED by the waiter itself when it times out or is interrupted. Exactly one of the two wins,
 * so a signal is never lost: a signaller that loses the CAS to a cancelled waiter moves on to the
 * next one. A waiter parks only while its status reads WAITING, and a signaller sets the status
 * before it unparks, so the wake-up cannot be missed; an early return of {@code park} only loops.
 *
 * <p>Interrupts follow the JDK: an interrupt before the signal makes the interruptible awaits throw
 * {@link InterruptedException} after the lock is taken again; an interrupt after the signal (or
 * during {@link #awaitUninterruptibly()}) leaves the interrupt status set on return.
 */
final class QueueCondition implements Condition {

    private static final int WAITING = 0;
    private static final int SIGNALLED = 1;
    private static final int CANCELLED = 2;

    /** The lock of a condition, as the condition uses it; every method is called by the thread that acts. */
    interface Owner {
        /** Whether the calling thread holds the lock. */
        boolean isHeldByCurrentThread();

        /**
         * As the owner: releases every hold of the caller (a full release, as {@code unlock()} of the
         * last hold) and returns their count; or throws, having released nothing.
         */
        int releaseAll();

        /**
         * Takes the lock again with {@code lock()} (which does not give up on an interrupt: one that
         * comes now stays in the thread's status) and restores the hold count to {@code holds}.
         */
        void reacquire(int holds);
    }

    private final Owner lock; // final
    private Waiter first; // plain: read and written only by the lock's owner
    private Waiter last; // plain: as first

    QueueCondition(Owner lock) {
        this.lock = lock;
    }

    /** A waiting thread: its status leaves WAITING once, by CAS. */
    private static final class Waiter {
        private static final VarHandle STATUS;

        static {
            try {
                STATUS = MethodHandles.lookup().findVarHandle(Waiter.class, "status", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final Thread thread;
        Waiter next; // plain: under the lock
        int status; // WAITING, then SIGNALLED or CANCELLED by CAS; read volatile by the waiter

        Waiter(Thread thread) {
            this.thread = thread;
        }

        boolean leave(int to) {
            return STATUS.compareAndSet(this, WAITING, to);
        }

        boolean waiting() {
            return (int) STATUS.getVolatile(this) == WAITING;
        }
    }

    // ------------------------------------------------------------------ await

    // How a wait ended, and whether an interrupt came while waiting (a bit beside the outcome).
    private static final int WOKEN = 0; // signalled
    private static final int TIMED_OUT = 1;
    private static final int INTERRUPTED = 2; // an interrupt cancelled the wait
    private static final int OUTCOME = 3;
    private static final int SAW_INTERRUPT = 4;

    // How a wait is bounded.
    private static final int UNTIMED = 0;
    private static final int NANO_TIME = 1; // deadline on the System.nanoTime() clock
    private static final int WALL_CLOCK = 2; // deadline in epoch milliseconds

    @Override
    public void await() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        finish(await(true, UNTIMED, 0L));
    }

    @Override
    public void awaitUninterruptibly() {
        int outcome = await(false, UNTIMED, 0L);
        if ((outcome & SAW_INTERRUPT) != 0) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public long awaitNanos(long nanosTimeout) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        long deadline = deadlineAfter(nanosTimeout);
        finish(await(true, NANO_TIME, deadline));
        long remaining = deadline - System.nanoTime();
        // As the JDK: an overflowed bound (saturated deadline) never reads as more than was asked.
        return remaining <= nanosTimeout ? remaining : Long.MIN_VALUE;
    }

    @Override
    public boolean await(long time, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(time);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        return finish(await(true, NANO_TIME, deadlineAfter(nanos))) != TIMED_OUT;
    }

    @Override
    public boolean awaitUntil(Date deadline) throws InterruptedException {
        long abstime = deadline.getTime();
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        return finish(await(true, WALL_CLOCK, abstime)) != TIMED_OUT;
    }

    /**
     * Every await: joins the queue, releases every hold, parks until signalled (or, when {@code
     * interruptible}, interrupted; when bounded, past the deadline), takes the lock again and
     * restores the holds.
     *
     * @return WOKEN, TIMED_OUT or INTERRUPTED, with SAW_INTERRUPT when an interrupt came while waiting
     */
    private int await(boolean interruptible, int bound, long deadline) {
        Waiter w = enqueue();
        int holds;
        try {
            holds = lock.releaseAll();
        } catch (RuntimeException e) { // nothing released: the caller still holds the lock
            w.leave(CANCELLED);
            unlinkCancelled();
            throw e;
        }
        boolean sawInterrupt = false;
        int outcome = WOKEN;
        while (w.waiting()) {
            long left = switch (bound) {
                case NANO_TIME -> deadline - System.nanoTime();
                case WALL_CLOCK -> deadline - System.currentTimeMillis();
                default -> 1L;
            };
            if (left <= 0L) {
                if (w.leave(CANCELLED)) {
                    outcome = TIMED_OUT;
                    break;
                }
                continue; // signalled meanwhile: the status reads SIGNALLED now
            }
            switch (bound) {
                case NANO_TIME -> LockSupport.parkNanos(this, left);
                case WALL_CLOCK -> LockSupport.parkUntil(this, deadline);
                default -> LockSupport.park(this);
            }
            if (Thread.interrupted()) { // cleared, else park would return at once from now on
                sawInterrupt = true;
                if (interruptible && w.leave(CANCELLED)) {
                    outcome = INTERRUPTED;
                    break;
                }
            }
        }
        reacquire(holds, outcome != WOKEN);
        return outcome | (sawInterrupt ? SAW_INTERRUPT : 0);
    }

    /**
     * After the lock is taken again: throws if an interrupt cancelled the wait, else keeps an
     * interrupt seen while waiting in the thread's status (it came after the signal or the timeout).
     *
     * @return WOKEN or TIMED_OUT
     */
    private static int finish(int result) throws InterruptedException {
        int outcome = result & OUTCOME;
        if (outcome == INTERRUPTED) {
            throw new InterruptedException();
        }
        if ((result & SAW_INTERRUPT) != 0) {
            Thread.currentThread().interrupt();
        }
        return outcome;
    }

    /** The nanoTime {@code nanos} from now, saturated (so the wait is as long as it can be) on overflow. */
    private static long deadlineAfter(long nanos) {
        long now = System.nanoTime();
        long deadline = now + Math.max(nanos, 0L);
        return deadline - now < 0L ? now + Long.MAX_VALUE : deadline;
    }

    // ------------------------------------------------------------------ signal

    @Override
    public void signal() {
        checkOwner();
        Waiter w;
        while ((w = first) != null) {
            unlinkFirst(w);
            if (w.leave(SIGNALLED)) {
                LockSupport.unpark(w.thread);
                return;
            }
        }
    }

    @Override
    public void signalAll() {
        checkOwner();
        Waiter w;
        while ((w = first) != null) {
            unlinkFirst(w);
            if (w.leave(SIGNALLED)) {
                LockSupport.unpark(w.thread);
            }
        }
    }

    // ------------------------------------------------------------------ the queue, under the lock

    /** As the owner: appends the caller to the queue (IllegalMonitorStateException when it is not the owner). */
    private Waiter enqueue() {
        checkOwner();
        Waiter w = new Waiter(Thread.currentThread());
        if (last == null) {
            first = w;
        } else {
            last.next = w;
        }
        last = w;
        return w;
    }

    private void unlinkFirst(Waiter w) {
        first = w.next;
        if (first == null) {
            last = null;
        }
        w.next = null;
    }

    /** As the owner: drops every cancelled waiter still queued (a waiter that gave up does it). */
    private void unlinkCancelled() {
        Waiter kept = null;
        Waiter w = first;
        while (w != null) {
            Waiter next = w.next;
            if (w.waiting()) {
                kept = w;
            } else {
                w.next = null;
                if (kept == null) {
                    first = next;
                } else {
                    kept.next = next;
                }
                if (next == null) {
                    last = kept;
                }
            }
            w = next;
        }
    }

    private void checkOwner() {
        if (!lock.isHeldByCurrentThread()) {
            throw new IllegalMonitorStateException(
                    "condition used by a thread that does not hold its lock: " + Thread.currentThread());
        }
    }

    // ------------------------------------------------------------------ the lock's holds

    /** Takes the lock again; a waiter that gave up drops itself, and any other cancelled waiter, from the queue. */
    private void reacquire(int holds, boolean cancelled) {
        lock.reacquire(holds);
        if (cancelled) {
            unlinkCancelled();
        }
    }
}
