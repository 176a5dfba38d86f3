package dev.wordstats.numa.lock.combining;

import dev.wordstats.numa.lock.CombiningSettings;
import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.probe.LockProbe;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * A combining lock: a thread that finds the lock taken publishes its critical section and waits, and
 * the thread that holds the lock runs the published critical sections of the waiters, back to back,
 * before it lets go. The lock thus passes from critical section to critical section without waking a
 * thread in between, which is where a lock for many virtual threads on few carriers loses its time.
 *
 * <p>The {@link Guard} contract holds: mutual exclusion with a happens-before edge from each critical
 * section to the next; {@link #call} returns the result of its own critical section, or throws the
 * exception or error that critical section threw, unchanged, whichever thread ran it; a call from inside
 * a critical section runs inline; waiting is not interruptible and an interrupt stays pending.
 *
 * <p>What a caller must know: a critical section may run on another thread (the combiner). Inside it,
 * {@link Thread#currentThread()}, thread locals and the interrupt status are the combiner's (an
 * interrupt the critical section gives its current thread is passed on to its caller). Waiters are
 * served in FIFO order. A critical section that blocks or runs long delays everyone behind it, as it
 * would under any lock; the combiner then hands its role on after that critical section (the batch is
 * bounded in time, {@link CombiningSettings#time()}), so the damage is that one critical section.
 * A critical section must not wait for another thread that uses the same lock (a deadlock under any
 * lock).
 *
 * <p>Not a {@link java.util.concurrent.locks.Lock}: there is no {@code lock()}/{@code unlock()} pair a
 * combiner could run for someone else. Create one with {@link LockType#COMBINING}.
 */
public final class CombiningLock extends CombiningLockL1Pad implements Guard {

    /*
     * Overview
     *
     * The algorithm is CC-Synch (Fatourou & Kallimanis, "Revisiting the Combining Synchronization
     * Technique", PPoPP 2012), a queue-based form of flat combining (Hendler, Incze, Shavit & Tzafrir,
     * "Flat Combining and the Synchronization-Parallelism Tradeoff", SPAA 2010), adapted to threads that
     * park, with a test-and-set style fast path for the uncontended case.
     *
     * State
     *  - tail: null when the lock is free; otherwise the last Request of the queue of callers. The
     *    queue's head is the combiner: the thread that holds the lock and runs critical sections.
     *  - fastNode: the lock's own Request, used as the queue head by an uncontended call, so that call
     *    allocates nothing: CAS tail null -> fastNode, run, CAS tail fastNode -> null.
     *  - owner: the thread running critical sections now (the combiner), for reentrancy.
     *  - Request: one per contended call, never reused (the garbage collector rules out ABA). task is
     *    written by its caller before the tail swap that publishes it; result/failure by the combiner
     *    before it sets DONE; next once, by the successor. state collects bits, each set once by
     *    getAndBitwiseOr: PARKED (by the caller, before parking), DONE (by the combiner, result
     *    published), COMBINE (by the combiner, the role is handed over), PRED_AWAKE (the predecessor's
     *    thread runs and has handed the duty to wake this caller on), DEPARTED (by the caller of a
     *    served request leaving while it had no successor yet), INTERRUPT (the critical section
     *    interrupted the combiner thread; its caller re-interrupts itself).
     *
     * call()
     *  1. Reentry: owner == current thread -> run inline. This also catches a critical section of
     *     another thread, run by this combiner, that calls the lock again: owner is the running
     *     thread, not the thread whose critical section runs (checked by
     *     CombiningLockTest.aCombinedCriticalSectionOfAnotherThreadReentersInline).
     *  2. Fast path: CAS tail null -> fastNode; owner = me; run; release (below).
     *  3. Slow path: new Request(me, task); pred = xchg tail. pred == null: the lock was free, this
     *     caller is the combiner. Otherwise link pred.next, and wait: spin SPINS rounds on state if
     *     the combiner is at its predecessor (pred is fastNode, a combiner's request, or served), none
     *     deeper in the queue; then set PARKED and park until DONE or COMBINE. DONE: leave (wake the
     *     successor, below) and return result or throw failure. COMBINE: this caller is the combiner.
     *  4. A combiner runs its own critical section, then combines.
     *
     * Combining and release (combiner, from its own Request or fastNode p)
     *  - n = p.next; none: owner = null, CAS tail p -> null (the lock is free); if that fails a caller
     *    is linking in: owner = me, wait for the link (spin, then yield: the linker is between two
     *    stores and cannot block).
     *  - If combineLimit requests are served or combineTime has passed since the first: hand over:
     *    owner = null, set COMBINE on n, unpark it if PARKED. Otherwise run n.task (catching any
     *    Throwable into n.failure), set DONE on n (and PRED_AWAKE, for the first of the batch), p = n.
     *  - The combiner's own interrupt status is put aside while it runs other threads' critical
     *    sections and restored after.
     *
     * Wake-up chain (the park/unpark handshake)
     *  A served caller must be unparked, but not by the combiner on the critical path for each one.
     *  Its waking needs three bits: PARKED (it parks), DONE (its result is ready) and PRED_AWAKE (the
     *  thread before it runs). Whoever sets the last of the three unparks it (getAndBitwiseOr tells
     *  exactly one party that its bit completed the set); when PARKED comes last the caller sees DONE
     *  and does not park. The combiner gives PRED_AWAKE to the first request of its batch; each
     *  served caller, once running, gives PRED_AWAKE to its successor, so the wake-ups run down the
     *  batch on other carriers while the combiner goes on. When the chain has caught up with the
     *  combiner (PRED_AWAKE before DONE) the combiner's DONE is the last bit and it unparks. A
     *  successor that links in after its served predecessor left (DEPARTED, a Dekker pattern: the
     *  leaver sets DEPARTED then reads next, the linker writes next then reads DEPARTED; both are
     *  volatile) gives itself PRED_AWAKE. The new combiner (COMBINE) is unparked by the old one at
     *  once: it is the critical path.
     *
     * Invariants
     *  - Mutual exclusion: critical sections run only on the combiner, and the combiner role is held
     *    by one thread from the moment tail leaves null (CAS/xchg) until it returns to null (CAS by
     *    the combiner) or is handed over (COMBINE to exactly one successor); checked by
     *    CombiningLockTest.mutualExclusionKeepsAPlainCounterExact and jcstress
     *    CombiningLockTests.
     *  - Happens-before from each critical section to the next: within a batch by program order;
     *    between combiners through the volatile tail CAS/xchg or the COMBINE RMW; checked by jcstress
     *    CombiningLockTests.
     *  - Each published critical section runs exactly once and its result or exception reaches its
     *    own caller: task is cleared when run; result/failure are plain writes before the release
     *    RMW of DONE, read after the caller's volatile read of DONE; checked by
     *    CombiningLockTest.resultsAndExceptionsReachTheirOwnCallersAndTheBatchGoesOn and jcstress
     *    CombiningLockTests.
     *  - FIFO: requests are served, and the role handed over, in tail-swap order; checked by
     *    CombiningLockTest.waitersAreServedInArrivalOrder.
     *  - No lost wake-up: see the chain above; a waiter parks only after its own RMW of PARKED found
     *    neither DONE nor COMBINE; checked by CombiningLockTest.mutualExclusionKeepsAPlainCounterExact
     *    (every call returns) and jcstress.
     *  - Bounded batch: at most combineLimit others' critical sections, and none started after
     *    combineTime; checked by CombiningLockTest.aLongCriticalSectionEndsTheBatch and
     *    CombiningLockTest.aBatchServesAtMostTheLimit.
     *
     * Progress and fairness
     *  FIFO and starvation-free: a caller waits for the callers ahead of it and for the one critical
     *  section running when it arrived. The combiner's own caller waits one batch longer (bounded by
     *  combineLimit and combineTime). Arrivals do not barge: the fast path works only on an empty
     *  queue. Spinning is bounded (SPINS, then park; the wait for a link yields after LINK_SPINS), so a
     *  waiting virtual thread gives its carrier back: carriers are few and not time-sliced. Only a
     *  caller whose predecessor is being served spins at all: deeper in the queue it parks at once
     *  and leaves the carrier to the threads being woken.
     *  The lock is FIFO among callers that are queued; it cannot see threads that are runnable but
     *  not mounted. With many more virtual threads than carriers, a thread that finds the queue empty
     *  would take the fast path again and again while the threads it served wait for a carrier (none
     *  is time-sliced). So a virtual thread whose call served others yields its carrier once the lock
     *  is released (yieldToServed): the threads it woke run before it calls again. With the
     *  contention benchmark's long critical sections this makes the lock fairer and faster; with
     *  short ones it helps little, since each served thread then costs a park, a wake-up and a
     *  mount for a much shorter critical section, and which runnable thread a carrier picks next is
     *  the scheduler's choice.
     *
     * Blocking or long critical sections
     *  The combiner runs them; those behind wait, as behind any lock holder. Requests served before
     *  it still return (the wake-up chain does not need the combiner); after it the combiner hands its
     *  role on (combineTime), so its own caller is not held for a further batch; checked by
     *  CombiningLockTest.aLongCriticalSectionEndsTheBatch and
     *  CombiningLockTest.aBlockingCriticalSectionDoesNotStopOthersFromFinishing.
     *
     * Accepted races
     *  - A caller that sets PARKED and then sees DONE before parking may be left with an unpark
     *    permit; every park loop re-checks its condition, so a spare permit only costs a loop.
     *  - Both the leaver and the linker may give PRED_AWAKE (Dekker, both see each other); the second
     *    RMW finds the bit set and does nothing.
     *  - owner is read plainly by every caller: a thread can only see itself there if it wrote it and
     *    has not cleared it since (it clears it before each release), so a stale value never makes a
     *    caller think it is the combiner.
     *
     * Probe (optional, LockProbe; none: every report below is skipped by a null check)
     *  - acquired(waited, wait): by the thread that takes the lock, after enter(): the fast path and a
     *    caller that found the queue empty (waited false, unless it waited for the outer lock, below),
     *    a caller handed the role by COMBINE (waited true); and by the combiner for each waiter's
     *    critical section it is about to run (waited true, wait from the waiter's call, read from
     *    Request.asked), so the reporting thread is the one that touches the data, as a lock holder
     *    would.
     *  - The outer lock: with a probe, enter() asks Outer.enter to say whether it waited (the clock at
     *    which it began to wait, 0 for no wait). A caller that found the queue empty and then waited
     *    for the outer lock is reported waited true, even by the fast path to a probe deaf to it; its
     *    wait runs from the start of its call (Request.asked, or the fast path's clock read when timed)
     *    or, on an untimed fast path, which read no clock, from the start of the outer wait. Without a
     *    probe Outer.enter measures nothing.
     *  - wantsWaitNow: at the start of each wait, by the waiting caller: in callQueued (every wait there is
     *    reported, its answer aside), or, for a caller that found the queue empty, by Outer.enter when it
     *    finds the outer lock held.
     *  - released: when timed, or after a wait when the probe hears its release, by each caller after its
     *    call's release (fast path, own combining) or after DONE (served: the combiner left began/ended in
     *    the Request before its DONE RMW).
     *  - combined(size, nanos): by a combiner that ran at least one waiter's critical section, when it
     *    frees the queue (after the CAS to null, before the outer lock's exit) or hands the role on.
     *  Nothing in the algorithm depends on the probe: the same CAS, xchg and RMWs run with or without
     *  (with one, Outer.enter only reads the outer lock's state before it takes it; it decides nothing).
     *
     * Memory modes: see package-info. Padding: tail and owner (both written by the combiner, tail
     * swapped by arrivals) are one 128-byte-padded block (CombiningLockL0Pad/L1Pad). Requests are
     * not padded: each is a fresh allocation in its caller's TLAB.
     */

    /** onSpinWait rounds a waiter spins on its request before it parks. */
    static final int SPINS = 64;

    /** onSpinWait rounds a combiner waits for a successor's link before it yields. */
    static final int LINK_SPINS = 128;

    private static final VarHandle TAIL;

    static {
        try {
            TAIL = MethodHandles.lookup().findVarHandle(CombiningLockFields.class, "tail", Request.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Request fastNode = new Request(null, null);
    private final int combineLimit;
    private final long combineNanos;
    private final Outer outer;
    private final LockProbe probe; // null without one
    private final LockProbe fastProbe; // probe if it hears the fast path, else null
    private final boolean timed; // probe != null && probe.timed()
    private final boolean releaseHeard; // probe != null && probe.hearsReleaseAfterWait()

    /** A combining lock with the {@link CombiningSettings#DEFAULTS default} batch bounds and no probe. */
    public CombiningLock() {
        this(CombiningSettings.DEFAULTS, LockProbe.NONE);
    }

    /**
     * A combining lock with the batch bounds of {@code settings}, reporting to {@code probe}
     * ({@link LockProbe#NONE} for none).
     */
    public CombiningLock(CombiningSettings settings, LockProbe probe) {
        this(settings, probe, null);
    }

    /**
     * A combining lock whose combiner also takes {@code outer} (a global lock above per-node queues) before
     * it runs critical sections and lets it go before it hands its role on or frees the queue.
     */
    CombiningLock(CombiningSettings settings, LockProbe probe, Outer outer) {
        Objects.requireNonNull(settings, "settings");
        this.combineLimit = settings.limit();
        this.combineNanos = saturatedNanos(settings.time());
        this.outer = outer;
        this.probe = LockProbe.orNull(probe);
        this.fastProbe = LockProbe.fastPathOf(probe);
        this.timed = this.probe != null && this.probe.timed();
        this.releaseHeard = this.probe != null && this.probe.hearsReleaseAfterWait();
    }

    /** What a combiner holds above its queue: taken before it runs critical sections, let go before it leaves. */
    interface Outer {
        /**
         * Takes the outer lock for {@code combiner}; not interruptible. When {@code measure} (the queue has a
         * probe), says whether it waited: the {@link System#nanoTime()} at which it began to wait, made nonzero,
         * or 0 when it did not wait; a report, not a decision (how it tells may race, as its implementation
         * documents). Without {@code measure}, returns 0 and reads neither the clock nor the lock's state.
         * {@code beginsWait}: the caller has not waited yet (it found the queue empty), so a wait for the outer
         * lock is the start of its wait, where the probe is asked {@link LockProbe#wantsWaitNow()}.
         */
        long enter(Thread combiner, boolean measure, boolean beginsWait);

        /** Lets the outer lock go. */
        void exit();
    }

    @Override
    public <T> T call(Supplier<T> criticalSection) {
        Thread me = Thread.currentThread();
        if (owner == me) {
            return criticalSection.get(); // reentrant, or a combined critical section calling again
        }
        long asked = timed ? System.nanoTime() : 0L;
        if (casTail(null, fastNode)) {
            long outerAsked = enter(me, true); // nonzero only with a probe, when it waited for the outer lock
            boolean waited = outerAsked != 0L;
            boolean report = fastProbe != null || waited;
            // an untimed fast path read no clock before: its wait runs from the start of the outer wait
            long began = report ? reportAcquired(waited, waited && !timed ? outerAsked : asked) : 0L;
            try {
                return criticalSection.get();
            } finally {
                long ended = timed ? System.nanoTime() : 0L;
                boolean served = releaseFast(me);
                if (report && (timed || waited && releaseHeard)) { // outside the critical section
                    probe.released(waited, began - asked, (timed ? ended : System.nanoTime()) - began);
                }
                if (served) {
                    yieldToServed(me);
                }
            }
        }
        return callQueued(me, criticalSection, asked);
    }

    /** Tells the probe of an acquisition that began at {@code asked} (a clock read when it measures); returns now. */
    private long reportAcquired(boolean waited, long asked) {
        long now = timed || waited ? System.nanoTime() : 0L;
        probe.acquired(waited, now - asked);
        return now;
    }

    /** The most critical sections of others one combiner runs. */
    public int combineLimit() {
        return combineLimit;
    }

    /** The longest time one combiner runs critical sections of others (checked after each). */
    public Duration combineTime() {
        return Duration.ofNanos(combineNanos);
    }

    /** Whether some thread holds the lock now (a snapshot). */
    public boolean isLocked() {
        return tailVolatile() != null;
    }

    @Override
    public String toString() {
        Thread o = owner;
        return "CombiningLock["
                + (tailVolatile() == null ? "Unlocked" : o == null ? "Locked" : "Locked by thread " + o.getName())
                + ", combineLimit=" + combineLimit + ", combineTime=" + combineTime() + "]";
    }

    // ------------------------------------------------------------------ combiner side

    /**
     * Takes the outer lock, if any, and the owner role; returns Outer.enter's answer: the clock at which it
     * began to wait for the outer lock, or 0 (no wait, no outer lock, or no probe to tell).
     */
    private long enter(Thread me, boolean beginsWait) {
        long outerAsked = outer != null ? outer.enter(me, probe != null, beginsWait) : 0L;
        owner = me;
        return outerAsked;
    }

    private void exit() {
        owner = null;
        if (outer != null) {
            outer.exit();
        }
    }

    /** The uncontended release: one CAS when nobody queued behind the fast path; else combine. */
    private boolean releaseFast(Thread me) {
        owner = null; // before the CAS: after it, the next holder may already have written its own name
        if (casTail(fastNode, null)) {
            if (outer != null) {
                outer.exit();
            }
            return false;
        }
        owner = me;
        return combine(me, fastNode);
    }

    /**
     * After a call that ran other threads' critical sections: a virtual thread gives its carrier to the
     * threads it served (they are runnable now), instead of taking the free lock again at once.
     */
    private static void yieldToServed(Thread me) {
        if (me.isVirtual()) {
            Thread.yield();
        }
    }

    private <T> T callQueued(Thread me, Supplier<T> criticalSection, long asked) {
        Objects.requireNonNull(criticalSection, "criticalSection");
        Request request = new Request(me, criticalSection);
        if (probe != null) {
            probe.wantsWaitNow(); // the start of the wait (a probe may begin its record there); every wait is reported
            request.asked = timed ? asked : System.nanoTime(); // a waiting acquisition is always timed
        }
        Request pred = getAndSetTail(request);
        if (pred != null) {
            pred.setNextVolatile(request);
            int predState = pred.stateVolatile();
            if ((predState & Request.DEPARTED) != 0) {
                request.signal(Request.PRED_AWAKE); // the served predecessor left before we linked in
            }
            // Spin only when the combiner is at our predecessor: deeper in the queue, park at once and
            // leave the carrier to the threads being woken.
            boolean next = pred == fastNode || (predState & (Request.DONE | Request.COMBINE)) != 0;
            int state = request.awaitTurn(this, next ? SPINS : 0);
            if ((state & Request.DONE) != 0) {
                request.depart();
                if (timed || releaseHeard && probe != null) {
                    // The combiner wrote began (and ended, if timed) before its DONE RMW, which we have read.
                    long ended = timed ? request.ended : System.nanoTime();
                    probe.released(true, request.began - request.asked, ended - request.began);
                }
                return request.deliver(state);
            }
            // COMBINE: the previous combiner handed the role to us.
        } else {
            request.signal(Request.COMBINE); // tells a successor that the combiner is right before it
        }
        long outerAsked = enter(me, false); // nonzero only with a probe, when it waited for the outer lock
        boolean waited = pred != null || outerAsked != 0L;
        boolean report = probe != null && (waited || fastProbe != null);
        long began = report ? reportAcquired(waited, request.asked) : 0L;
        T result = null;
        Throwable failure = null;
        try {
            result = criticalSection.get();
        } catch (Throwable t) {
            failure = t;
        }
        long ended = timed ? System.nanoTime() : 0L;
        boolean served = combine(me, request);
        if (report && (timed || waited && releaseHeard)) { // outside the critical section
            probe.released(waited, began - request.asked, (timed ? ended : System.nanoTime()) - began);
        }
        if (served) {
            yieldToServed(me);
        }
        if (failure != null) {
            throw Request.<RuntimeException>sneaky(failure);
        }
        return result;
    }

    /**
     * Runs the queued critical sections after {@code head} (the combiner's own request, or fastNode) up to the
     * batch bounds, then frees the lock or hands the combiner role on. Called with owner == me.
     */
    private boolean combine(Thread me, Request head) {
        boolean selfInterrupted = Thread.interrupted(); // kept aside while others' critical sections run
        int budget = combineLimit;
        long deadline = 0L;
        int firstBits = Request.DONE | Request.PRED_AWAKE;
        Request p = head;
        try {
            for (; ; ) {
                Request n = p.nextVolatile();
                if (n == null) {
                    owner = null;
                    if (casTail(p, null)) {
                        if (probe != null && p != head) {
                            reportBatch(combineLimit - budget, deadline - combineNanos);
                        }
                        if (outer != null) {
                            outer.exit();
                        }
                        return p != head;
                    }
                    owner = me;
                    n = p.awaitNext();
                }
                if (p == fastNode) {
                    p.setNextPlain(null); // ready for the next fast path: only we read it until tail is null again
                }
                if (budget == combineLimit) {
                    deadline = System.nanoTime() + combineNanos;
                } else if (budget == 0 || System.nanoTime() - deadline > 0L) {
                    if (probe != null) {
                        reportBatch(combineLimit - budget, deadline - combineNanos);
                    }
                    exit();
                    n.handOver();
                    return true;
                }
                budget--;
                if (probe != null) {
                    n.began = reportAcquired(true, n.asked); // the combiner takes the lock for n's caller
                }
                n.serve(firstBits, timed);
                firstBits = Request.DONE;
                p = n;
            }
        } finally {
            if (selfInterrupted) {
                me.interrupt();
            }
        }
    }

    // ------------------------------------------------------------------ accessors

    private Request tailVolatile() {
        return (Request) TAIL.getVolatile(this);
    }

    private boolean casTail(Request expect, Request update) {
        return TAIL.compareAndSet(this, expect, update);
    }

    private Request getAndSetTail(Request update) {
        return (Request) TAIL.getAndSet(this, update);
    }

    /** Tells the probe of a batch of {@code size} waiters' critical sections that started at {@code start}. */
    private void reportBatch(int size, long start) {
        probe.combined(size, System.nanoTime() - start);
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /** One published critical section and the handshake of its caller with the combiner and its neighbours. */
    static final class Request {
        static final int PARKED = 1;
        static final int DONE = 2;
        static final int PRED_AWAKE = 4;
        static final int COMBINE = 8;
        static final int DEPARTED = 16;
        static final int INTERRUPT = 32;

        private static final int WAKE = PARKED | DONE | PRED_AWAKE;
        private static final int TURN = DONE | COMBINE;

        private static final VarHandle NEXT;
        private static final VarHandle STATE;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                NEXT = lookup.findVarHandle(Request.class, "next", Request.class);
                STATE = lookup.findVarHandle(Request.class, "state", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final Thread thread; // the caller, set at construction; null for the lock's fastNode
        private Supplier<?> task; // plain: by the caller before the tail swap publishes it; cleared by the combiner
        private Object result; // plain: by the combiner before its DONE RMW; read by the caller after it sees DONE
        private Throwable failure; // plain: as result
        private Request next; // volatile: set once by the successor after its tail swap; plain reset on fastNode
        long asked; // plain, with a probe: by the caller before the tail swap publishes it (start of its call)
        long began; // plain, with a probe: by the combiner before serving; read by the caller after it sees DONE
        long ended; // plain, when timed: by the combiner before its DONE RMW; read by the caller after it sees DONE
        private int state; // getAndBitwiseOr by the caller, the combiner and the neighbours; read volatile

        Request(Thread thread, Supplier<?> task) {
            this.thread = thread;
            this.task = task;
        }

        Request nextVolatile() {
            return (Request) NEXT.getVolatile(this);
        }

        void setNextVolatile(Request successor) {
            NEXT.setVolatile(this, successor);
        }

        void setNextPlain(Request successor) {
            NEXT.set(this, successor);
        }

        int stateVolatile() {
            return (int) STATE.getVolatile(this);
        }

        /**
         * Sets {@code bits}; if that completed PARKED|DONE|PRED_AWAKE, unparks the caller (exactly one party
         * sees its bit complete the set).
         */
        void signal(int bits) {
            int old = (int) STATE.getAndBitwiseOr(this, bits);
            if ((old & WAKE) != WAKE && ((old | bits) & WAKE) == WAKE) {
                LockSupport.unpark(thread);
            }
        }

        /**
         * By the combiner: runs the task, publishes its outcome with {@code bits} (DONE, maybe PRED_AWAKE),
         * and, when {@code timed}, the time it ended.
         */
        void serve(int bits, boolean timed) {
            Supplier<?> t = task;
            task = null;
            try {
                result = t.get();
            } catch (Throwable e) {
                failure = e;
            }
            if (timed) {
                ended = System.nanoTime();
            }
            if (Thread.interrupted()) {
                bits |= INTERRUPT; // the critical section interrupted "its" thread: pass it to its caller
            }
            signal(bits);
        }

        /** By the combiner: hands the combiner role to this request's caller, unparking it if it parked. */
        void handOver() {
            int old = (int) STATE.getAndBitwiseOr(this, COMBINE);
            if ((old & PARKED) != 0) {
                LockSupport.unpark(thread);
            }
        }

        /** By the caller: waits (spin, then park) until DONE or COMBINE; the returned state has one of them. */
        int awaitTurn(Object blocker, int spins) {
            int s;
            for (int i = spins; i > 0; i--) {
                if (((s = stateVolatile()) & TURN) != 0) {
                    return s;
                }
                Thread.onSpinWait();
            }
            s = (int) STATE.getAndBitwiseOr(this, PARKED);
            if ((s & TURN) != 0) {
                return s;
            }
            boolean interrupted = false;
            while (((s = stateVolatile()) & TURN) == 0) {
                LockSupport.park(blocker);
                if (Thread.interrupted()) {
                    interrupted = true; // waiting is not interruptible: keep it pending
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            return s;
        }

        /** By a served caller leaving: passes PRED_AWAKE to its successor, or marks itself DEPARTED for it. */
        void depart() {
            Request n = nextVolatile();
            if (n == null) {
                STATE.getAndBitwiseOr(this, DEPARTED);
                n = nextVolatile();
                if (n == null) {
                    return; // a successor linking in now sees DEPARTED
                }
            }
            n.signal(PRED_AWAKE);
        }

        /** By a served caller: its result, or its critical section's exception rethrown unchanged. */
        @SuppressWarnings("unchecked")
        <T> T deliver(int state) {
            if ((state & INTERRUPT) != 0) {
                Thread.currentThread().interrupt();
            }
            Throwable f = failure;
            if (f != null) {
                throw Request.<RuntimeException>sneaky(f);
            }
            return (T) result;
        }

        /** By a combiner: waits for the link of a successor that has swapped the tail (it cannot block meanwhile). */
        Request awaitNext() {
            Request n;
            int spins = LINK_SPINS;
            while ((n = nextVolatile()) == null) {
                if (spins > 0) {
                    spins--;
                    Thread.onSpinWait();
                } else {
                    Thread.yield(); // the linking thread may wait for this carrier
                }
            }
            return n;
        }

        /** Throws any Throwable as is: a critical section's checked exception (a sneaky throw) stays unchanged. */
        @SuppressWarnings("unchecked")
        static <E extends Throwable> E sneaky(Throwable t) throws E {
            throw (E) t;
        }
    }
}

abstract class CombiningLockL0Pad {
    byte p0000, p0001, p0002, p0003, p0004, p0005, p0006, p0007, p0008, p0009, p0010, p0011, p0012, p0013, p0014, p0015;
    byte p0016, p0017, p0018, p0019, p0020, p0021, p0022, p0023, p0024, p0025, p0026, p0027, p0028, p0029, p0030, p0031;
    byte p0032, p0033, p0034, p0035, p0036, p0037, p0038, p0039, p0040, p0041, p0042, p0043, p0044, p0045, p0046, p0047;
    byte p0048, p0049, p0050, p0051, p0052, p0053, p0054, p0055, p0056, p0057, p0058, p0059, p0060, p0061, p0062, p0063;
    byte p0064, p0065, p0066, p0067, p0068, p0069, p0070, p0071, p0072, p0073, p0074, p0075, p0076, p0077, p0078, p0079;
    byte p0080, p0081, p0082, p0083, p0084, p0085, p0086, p0087, p0088, p0089, p0090, p0091, p0092, p0093, p0094, p0095;
    byte p0096, p0097, p0098, p0099, p0100, p0101, p0102, p0103, p0104, p0105, p0106, p0107, p0108, p0109, p0110, p0111;
    byte p0112, p0113, p0114, p0115, p0116, p0117, p0118, p0119, p0120, p0121, p0122, p0123, p0124, p0125, p0126, p0127;
}

abstract class CombiningLockFields extends CombiningLockL0Pad {
    CombiningLock.Request
            tail; // xchg by arriving callers, CAS null->fastNode by the fast path, CAS ->null by the combiner
    Thread owner; // plain, by the combiner: set after it takes the role, cleared before it frees or hands it on
}

abstract class CombiningLockL1Pad extends CombiningLockFields {
    byte p1000, p1001, p1002, p1003, p1004, p1005, p1006, p1007, p1008, p1009, p1010, p1011, p1012, p1013, p1014, p1015;
    byte p1016, p1017, p1018, p1019, p1020, p1021, p1022, p1023, p1024, p1025, p1026, p1027, p1028, p1029, p1030, p1031;
    byte p1032, p1033, p1034, p1035, p1036, p1037, p1038, p1039, p1040, p1041, p1042, p1043, p1044, p1045, p1046, p1047;
    byte p1048, p1049, p1050, p1051, p1052, p1053, p1054, p1055, p1056, p1057, p1058, p1059, p1060, p1061, p1062, p1063;
    byte p1064, p1065, p1066, p1067, p1068, p1069, p1070, p1071, p1072, p1073, p1074, p1075, p1076, p1077, p1078, p1079;
    byte p1080, p1081, p1082, p1083, p1084, p1085, p1086, p1087, p1088, p1089, p1090, p1091, p1092, p1093, p1094, p1095;
    byte p1096, p1097, p1098, p1099, p1100, p1101, p1102, p1103, p1104, p1105, p1106, p1107, p1108, p1109, p1110, p1111;
    byte p1112, p1113, p1114, p1115, p1116, p1117, p1118, p1119, p1120, p1121, p1122, p1123, p1124, p1125, p1126, p1127;
}
