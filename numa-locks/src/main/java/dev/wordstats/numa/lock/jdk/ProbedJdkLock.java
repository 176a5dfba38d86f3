package dev.wordstats.numa.lock.jdk;

import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.probe.LockProbe;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * What a probe cannot do from inside a lock it does not own: a {@link Lock} of the JDK
 * ({@link LockType#FAIR_REENTRANT}, {@link LockType#UNFAIR_REENTRANT}) reports to a {@link LockProbe}
 * through this thin wrapper. The fast path is the lock's own first attempt, taken the way its type
 * allows without changing who may take a free lock: {@code tryLock()} for a non-fair lock (which its
 * {@code lock()} tries first anyway), {@code tryLock(0, NANOSECONDS)} for a fair one (which honours
 * fairness, where {@code tryLock()} would barge). Only the outermost acquisition is reported.
 */
public final class ProbedJdkLock implements Lock {

    /*
     * Owner-only fields (owner, depth, acquiredAt, waitNanos, waited) are plain: the wrapped lock's
     * acquire/release edges order them between successive owners. The probe's acquired() is called
     * with the lock held; released() after the unlock, on the thread that held it.
     */

    /**
     * Added to {@code depth} by an acquisition that waited, was reported, and whose probe (not timed)
     * {@link LockProbe#hearsReleaseAfterWait() hears its release}: the last unlock of an untimed probe's
     * fast acquisition reads only the count, as without it, and an unlock that leaves exactly this mark
     * reports the release.
     */
    private static final int RELEASE_HEARD = 1 << 30;

    private final Lock delegate;
    private final boolean fair;
    private final LockProbe probe;
    private final boolean hearsFast;
    private final boolean timed;

    private Thread owner; // plain, owner only: set after the outermost acquisition, cleared before the release
    private int depth; // plain, owner only: hold depth as seen through this wrapper, plus RELEASE_HEARD (see there)
    private long acquiredAt; // plain, owner only (timed): nanoTime of the outermost acquisition
    private long waitNanos; // plain, owner only (timed): wait of the outermost acquisition
    private boolean waited; // plain, owner only: whether the outermost acquisition waited

    private ProbedJdkLock(Lock delegate, boolean fair, LockProbe probe) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.fair = fair;
        this.probe = probe;
        this.hearsFast = probe.hearsFastPath();
        this.timed = probe.timed();
    }

    /**
     * {@code lock} reporting to {@code probe}, or {@code lock} itself when there is no probe.
     *
     * @param fair whether {@code lock} is fair, so that the first attempt must honour fairness
     */
    public static Lock probed(Lock lock, boolean fair, LockProbe probe) {
        LockProbe p = LockProbe.orNull(probe);
        return p == null ? lock : new ProbedJdkLock(lock, fair, p);
    }

    private boolean tryFirst() throws InterruptedException {
        return fair ? delegate.tryLock(0L, TimeUnit.NANOSECONDS) : delegate.tryLock();
    }

    @Override
    public void lock() {
        long start = timed ? System.nanoTime() : 0L;
        boolean first;
        try {
            first = tryFirst();
        } catch (InterruptedException e) {
            // lock() is not interruptible: keep the status for the caller and wait as usual.
            Thread.currentThread().interrupt();
            first = false;
        }
        if (first) {
            acquired(false, start);
            return;
        }
        long waitStart = waitStart(start);
        delegate.lock();
        acquired(true, waitStart);
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            // Lock's contract: an interrupt pending on entry throws, even when the lock is free.
            throw new InterruptedException();
        }
        long start = timed ? System.nanoTime() : 0L;
        if (tryFirst()) {
            acquired(false, start);
            return;
        }
        long waitStart = waitStart(start);
        delegate.lockInterruptibly();
        acquired(true, waitStart);
    }

    @Override
    public boolean tryLock() {
        long start = timed ? System.nanoTime() : 0L;
        if (!delegate.tryLock()) {
            return false;
        }
        acquired(false, start);
        return true;
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        long start = timed ? System.nanoTime() : 0L;
        if (tryFirst()) {
            acquired(false, start);
            return true;
        }
        long waitStart = waitStart(start);
        if (!delegate.tryLock(time, unit)) {
            return false;
        }
        acquired(true, waitStart);
        return true;
    }

    @Override
    public void unlock() {
        if (owner != Thread.currentThread()) {
            throw new IllegalMonitorStateException(
                    "unlock by a thread that does not hold the lock: " + Thread.currentThread());
        }
        int left = --depth;
        if (left == 0) {
            owner = null;
            if (timed && (waited || hearsFast)) {
                long hold = System.nanoTime() - acquiredAt;
                long wait = waitNanos;
                boolean slow = waited;
                delegate.unlock();
                probe.released(slow, wait, hold); // outside the critical section
                return;
            }
        } else if (left == RELEASE_HEARD) { // the last hold of a reported wait whose release the probe hears
            depth = 0;
            owner = null;
            long hold = System.nanoTime() - acquiredAt;
            long wait = waitNanos;
            delegate.unlock();
            probe.released(true, wait, hold); // outside the critical section
            return;
        }
        delegate.unlock();
    }

    /** Not supported: a condition's await would release the lock behind the probe's back. */
    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException(
                "a probed lock offers no conditions; build the lock without a probe if its type has them");
    }

    /**
     * At the start of a wait (the first attempt failed): asks the probe whether it wants the wait (it may
     * begin its own record of it there), and returns the clock the wait is measured from, or 0 when the
     * acquisition is not to be reported.
     */
    private long waitStart(long start) {
        boolean wanted = probe.wantsWaitNow(); // asked at every wait
        return timed ? start : wanted || hearsFast ? System.nanoTime() : 0L;
    }

    private void acquired(boolean slow, long start) {
        if (depth++ != 0) {
            return; // reentrant: not another acquisition
        }
        owner = Thread.currentThread();
        waited = slow;
        if (slow ? start != 0L : hearsFast) {
            long now = timed || slow ? System.nanoTime() : 0L;
            long wait = now - start;
            if (timed || slow && probe.hearsReleaseAfterWait()) {
                acquiredAt = now;
                waitNanos = wait;
                if (!timed) {
                    depth = 1 | RELEASE_HEARD; // the last unlock finds the mark in the count it reads anyway
                }
            }
            probe.acquired(slow, wait);
        }
    }

    @Override
    public String toString() {
        return "ProbedJdkLock[" + probe + ", " + delegate + "]";
    }
}
