package dev.wordstats.numa.lock.queue;

import dev.wordstats.numa.lock.probe.LockProbe;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;

/**
 * The lock word and owner fields that {@link NumaMcsLock} and {@link NumaHandoffLock} share, with
 * the reservation on that word, the timed {@code tryLock} and the monitoring methods both offer.
 * The word holds two bits: {@link #HELD} while the lock is owned, {@link #RESERVED} while a
 * starving queue leader reserves it (the reservation of each lock's Overview: Linux's mutex
 * handoff, Go's {@code sync.Mutex} starvation mode). These fields open the 128-byte padded block
 * that each lock's own fields (if any) and its L1 pad class close.
 */
abstract class QueueLockFields extends QueueLockL0Pad {

    static final int HELD = 1;
    static final int RESERVED = 2;

    // Outcomes of a slow-path acquisition.
    static final int ACQUIRED = 0;
    static final int INTERRUPTED = 1;
    static final int TIMED_OUT = 2;

    // Outcomes of a wait for leadership or for the word.
    static final int LEADER = 0;
    static final int LEADER_INTERRUPTED = 1;
    static final int GAVE_UP = 2;

    private static final VarHandle STATE;
    private static final VarHandle OWNER;
    private static final VarHandle PARKED_LEADERS;
    private static final VarHandle RESERVER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(QueueLockFields.class, "state", int.class);
            OWNER = lookup.findVarHandle(QueueLockFields.class, "owner", Thread.class);
            PARKED_LEADERS = lookup.findVarHandle(QueueLockFields.class, "parkedLeaders", int.class);
            RESERVER = lookup.findVarHandle(QueueLockFields.class, "reserver", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    int state; // HELD|RESERVED: CAS by acquirers and the reserver, getAndAdd(-HELD) by the owner
    // Written by the owner only, after it owns and before it releases: plain in NumaMcsLock, opaque
    // in NumaHandoffLock (whose spinning leaders read it opaque to see whether the owner runs).
    Thread owner;
    int holds; // plain, owner only: reentrant hold count
    QueueNode ownerNode; // plain, owner only: its queue node while it still heads its queue, else null
    int parkedLeaders; // getAndAdd by leaders around parking (and wakers that unpark one); read volatile by releasers
    Thread reserver; // volatile, by the leader that set RESERVED (itself, then null); read volatile by releasers

    // The lock's probe (see LockProbe), null without one: final, so a lock without a probe pays a
    // null check of a final field per report and nothing else; the algorithm never reads it. The
    // two views of it are null too when the probe does not hear the fast path / is not timed. (No
    // boolean fields here: a one-byte field leaves a hole the JVM fills with the pad class's bytes.)
    final LockProbe probe;
    final LockProbe fastProbe; // probe if it hears the fast path, else null
    final LockProbe timedProbe; // probe if it is timed, else null
    long probeAcquiredAt; // plain, owner only (timed probe): nanoTime of its outermost acquisition
    long probeWait; // plain, owner only (timed probe): the wait of that acquisition
    int probeWaited; // plain, owner only (probe): WAITED or RELEASE_HEARD when that acquisition waited, else 0

    /** {@link #probeWaited}: the outermost acquisition waited. */
    static final int WAITED = 1;
    /** {@link #probeWaited}: it waited, was reported, and its probe, not timed, hears the release of a wait. */
    static final int RELEASE_HEARD = 2;

    QueueLockFields(LockProbe probe) {
        this.probe = LockProbe.orNull(probe);
        this.fastProbe = LockProbe.fastPathOf(probe);
        this.timedProbe = this.probe != null && this.probe.timed() ? this.probe : null;
    }

    // ------------------------------------------------------------------ the monitoring methods

    /** Whether the calling thread holds this lock. */
    public final boolean isHeldByCurrentThread() {
        return owner == Thread.currentThread();
    }

    /** The calling thread's hold count: 0 when it does not hold the lock. */
    public final int getHoldCount() {
        return owner == Thread.currentThread() ? holds : 0;
    }

    /** Whether any thread holds this lock; for monitoring, not for synchronization. */
    public final boolean isLocked() {
        return (stateVolatile() & HELD) != 0;
    }

    /**
     * Whether a queue leader that waited past its lock's {@code reserveAfter()} has reserved this
     * lock: until it takes it, no other thread can. For monitoring, not for synchronization.
     */
    public final boolean isReserved() {
        return (stateVolatile() & RESERVED) != 0;
    }

    /** The {@code toString} part both locks share: who holds the lock, and who reserved it. */
    final String ownerAndReserver() {
        Thread o = owner;
        Thread reserving = reserverVolatile();
        return (o == null ? "[Unlocked]" : "[Locked by thread " + o.getName() + "]")
                + ((stateVolatile() & RESERVED) == 0
                        ? ""
                        : "[Reserved by thread " + (reserving == null ? "?" : reserving.getName()) + "]");
    }

    /**
     * A new {@link Condition} of this lock, as {@code ReentrantLock}'s: its awaits release every
     * hold of the caller and take the lock again (restoring the hold count) before they return or
     * throw; each of its methods throws {@link IllegalMonitorStateException} when the caller does not
     * hold the lock. See {@link QueueCondition}.
     */
    public final Condition newCondition() {
        return new QueueCondition(new QueueCondition.Owner() {
            @Override
            public boolean isHeldByCurrentThread() {
                return QueueLockFields.this.isHeldByCurrentThread();
            }

            @Override
            public int releaseAll() {
                int h = holds;
                holds = 1;
                unlock();
                return h;
            }

            @Override
            public void reacquire(int h) {
                lock();
                holds = h;
            }
        });
    }

    // ------------------------------------------------------------------ the timed tryLock

    /** Takes the lock if it is free now (each lock's own rule for a free word). */
    public abstract boolean tryLock();

    /** Takes the lock, waiting as long as it takes; an interrupt is kept in the thread's status. */
    public abstract void lock();

    /** Releases one hold; the last one releases the lock. */
    public abstract void unlock();

    /**
     * Queues the caller on its node, waits for leadership, then for the lock.
     *
     * @param interruptible whether an interrupt makes the caller give up (else it is kept for later)
     * @param deadline 0 for none, else the System.nanoTime() to give up at
     * @return ACQUIRED, or INTERRUPTED / TIMED_OUT after the caller left the queue cleanly
     */
    abstract int acquireQueued(Thread current, boolean interruptible, long deadline);

    /** As {@link java.util.concurrent.locks.Lock#tryLock(long, TimeUnit)}: {@link #tryLock()}, then the queue. */
    public final boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(time);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (tryLock()) {
            return true;
        }
        if (nanos <= 0L) {
            return false;
        }
        long deadline = System.nanoTime() + nanos;
        int outcome = acquireQueued(Thread.currentThread(), true, deadline == 0L ? 1L : deadline);
        if (outcome == INTERRUPTED) {
            throw new InterruptedException();
        }
        return outcome == ACQUIRED;
    }

    // ------------------------------------------------------------------ the owner

    final void reenter() {
        if (holds == Integer.MAX_VALUE) {
            throw new Error("Maximum lock count exceeded");
        }
        holds++;
    }

    final IllegalMonitorStateException notHeldBy(Thread current) {
        return new IllegalMonitorStateException(
                "unlock by a thread that does not hold the lock: " + current + " (owner: " + owner + ")");
    }

    // ------------------------------------------------------------------ the probe

    /**
     * Whether a fast acquisition is reported: the probe hears them, or is timed (its release report needs
     * the owner-only fields reset); a waits-only probe such as the JFR one costs the fast path nothing.
     */
    final boolean fastReported() {
        return fastProbe != null || timedProbe != null;
    }

    /**
     * The clock at the start of a wait, when the probe wants it or hears every acquisition (see
     * LockProbe.wantsWaitNow, asked at every wait: a probe may begin its wait there); else 0, and the
     * acquisition is not reported.
     */
    final long waitAskedAt() {
        LockProbe p = probe;
        return p != null && (p.wantsWaitNow() | fastReported()) ? System.nanoTime() : 0L; // asked at every wait
    }

    /** The clock at the start of a call, for a timed probe (the wait of a fast acquisition); else 0. */
    final long askedAt() {
        return timedProbe != null ? System.nanoTime() : 0L;
    }

    /**
     * By the new owner right after its outermost acquisition (with a probe): tells the probe, and keeps
     * what a timed probe's release report needs. {@code asked}: the clock at the start of the call (or
     * of the wait, for a slow acquisition); a slow acquisition is timed unless its probe did not want
     * it (asked 0: not reported).
     */
    final void reportAcquired(boolean slow, long asked) {
        probeWaited = slow ? WAITED : 0;
        if (slow ? asked != 0L : fastProbe != null) {
            boolean timed = timedProbe != null;
            long now = timed || slow ? System.nanoTime() : 0L;
            long wait = now - asked;
            if (timed || slow && probe.hearsReleaseAfterWait()) {
                probeAcquiredAt = now;
                probeWait = wait;
                if (!timed) {
                    probeWaited = RELEASE_HEARD;
                }
            }
            probe.acquired(slow, wait);
        }
    }

    /**
     * By the owner before the outermost release of an acquisition that came through the queue (never on
     * the fast path), when the probe is not timed: whether the probe hears this release (a reported wait,
     * {@link LockProbe#hearsReleaseAfterWait()}), clearing the mark.
     */
    final boolean waitReleaseHeard() {
        if (probeWaited == RELEASE_HEARD) {
            probeWaited = WAITED;
            return true;
        }
        return false;
    }

    /**
     * By the thread that has just released its outermost hold (timed probe, or a wait whose release the
     * probe hears): the wait and hold it read from the owner-only fields before the release let another
     * owner in.
     */
    final void reportReleased(boolean slow, long wait, long held) {
        if (slow || fastProbe != null) {
            probe.released(slow, wait, held);
        }
    }

    // ------------------------------------------------------------------ the reservation

    /**
     * As a queue leader that read {@code s}: takes the word when it is free, or, when this leader
     * reserved it ({@code reserved}), when it is RESERVED and not HELD. Only the reserver may leave
     * RESERVED, so its CAS cannot fail: it clears the reserver slot first, since after the CAS
     * another leader may reserve and store itself there.
     */
    final boolean takeWord(int s, boolean reserved) {
        if (reserved && s == RESERVED) {
            setReserverVolatile(null);
        }
        return mayTake(s, reserved) && casState(s, HELD);
    }

    /** Whether a leader that read {@code s} (and reserved the word, or not) may take it. */
    static boolean mayTake(int s, boolean reserved) {
        return s == 0 || (reserved && s == RESERVED);
    }

    /**
     * As a starving queue leader that read {@code s} without RESERVED: sets RESERVED by CAS and
     * then stores itself as the reserver. The caller re-reads the word before it parks (the
     * releaser's side: clear HELD, then read the reserver), so no wake-up is lost.
     */
    final boolean reserve(int s, Thread current) {
        if (!casState(s, s | RESERVED)) {
            return false;
        }
        setReserverVolatile(current);
        return true;
    }

    /**
     * Drops this leader's reservation: clears the reserver slot, then RESERVED. By a reserver that
     * gives up (the word may be free then) or that was handed the lock another way (it owns HELD).
     *
     * @return the state just before RESERVED was cleared
     */
    final int clearReservation() {
        setReserverVolatile(null);
        int s;
        do {
            s = stateVolatile();
        } while (!casState(s, s & ~RESERVED));
        return s;
    }

    /**
     * After a release that found RESERVED set: unparks the reserver, which alone may take the
     * word now. A null slot means it has not stored itself yet and will see HELD clear.
     */
    final void unparkReserver() {
        Thread waiter = reserverVolatile();
        if (waiter != null) {
            LockSupport.unpark(waiter);
        }
    }

    // ------------------------------------------------------------------ accessors (see package-info)

    final int stateVolatile() {
        return (int) STATE.getVolatile(this);
    }

    final boolean casState(int expect, int update) {
        return STATE.compareAndSet(this, expect, update);
    }

    /** Clears HELD (getAndAdd), returning the state before. */
    final int releaseState() {
        return (int) STATE.getAndAdd(this, -HELD);
    }

    final Thread ownerOpaque() {
        return (Thread) OWNER.getOpaque(this);
    }

    final void setOwnerOpaque(Thread thread) {
        OWNER.setOpaque(this, thread);
    }

    final int parkedLeadersVolatile() {
        return (int) PARKED_LEADERS.getVolatile(this);
    }

    final void getAndAddParkedLeaders(int delta) {
        PARKED_LEADERS.getAndAdd(this, delta);
    }

    final Thread reserverVolatile() {
        return (Thread) RESERVER.getVolatile(this);
    }

    final void setReserverVolatile(Thread waiter) {
        RESERVER.setVolatile(this, waiter);
    }

    // ------------------------------------------------------------------ helpers

    /** Why a waiter gave up: its deadline passed, or else it was interrupted. */
    static int giveUpReason(long deadline) {
        return deadline != 0L && deadline - System.nanoTime() <= 0L ? TIMED_OUT : INTERRUPTED;
    }

    /** {@code d} in nanoseconds, Long.MAX_VALUE when that overflows. */
    static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}

abstract class QueueLockL0Pad {
    byte p0000, p0001, p0002, p0003, p0004, p0005, p0006, p0007, p0008, p0009, p0010, p0011, p0012, p0013, p0014, p0015;
    byte p0016, p0017, p0018, p0019, p0020, p0021, p0022, p0023, p0024, p0025, p0026, p0027, p0028, p0029, p0030, p0031;
    byte p0032, p0033, p0034, p0035, p0036, p0037, p0038, p0039, p0040, p0041, p0042, p0043, p0044, p0045, p0046, p0047;
    byte p0048, p0049, p0050, p0051, p0052, p0053, p0054, p0055, p0056, p0057, p0058, p0059, p0060, p0061, p0062, p0063;
    byte p0064, p0065, p0066, p0067, p0068, p0069, p0070, p0071, p0072, p0073, p0074, p0075, p0076, p0077, p0078, p0079;
    byte p0080, p0081, p0082, p0083, p0084, p0085, p0086, p0087, p0088, p0089, p0090, p0091, p0092, p0093, p0094, p0095;
    byte p0096, p0097, p0098, p0099, p0100, p0101, p0102, p0103, p0104, p0105, p0106, p0107, p0108, p0109, p0110, p0111;
    byte p0112, p0113, p0114, p0115, p0116, p0117, p0118, p0119, p0120, p0121, p0122, p0123, p0124, p0125, p0126, p0127;
}
