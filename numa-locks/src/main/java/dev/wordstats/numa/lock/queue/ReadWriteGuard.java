package dev.wordstats.numa.lock.queue;

import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.probe.LockProbe;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;

/**
 * The part every reader-writer type shares: reentrancy, the refusal of an upgrade and the reports to
 * two probes, one for read sections and one for write sections. A subclass says only how to take and
 * release each side. Only sections reported as outermost reach a probe. A subclass whose sides can
 * also wait interruptibly and until a deadline offers {@link ReadLock} and {@link WriteLock}, the
 * {@link Lock} faces of its two sides, which share the sections' holds: a section and a hold of the
 * face nest in each other as two sections do.
 *
 * <p>Public as the type of the {@link ReadLock} and {@link WriteLock} faces that {@link NumaRwLock#readLock()} and
 * {@link NumaRwLock#writeLock()} return, and as the base of the reader-writer guards ({@link NumaRwLock},
 * {@link ReentrantReadWriteGuard}, {@link StampedGuard}); it has no public or protected constructor, so only
 * this package subclasses it: a subclass's sides take part in its reentrancy and probe reports, which are not
 * API.
 */
public abstract class ReadWriteGuard implements Guard {

    /*
     * Reentrancy: writer is written (plain) by the write holder only, after it took the write side and
     * before it releases it; any caller reads it (plain) and can find its own thread there only if it
     * wrote it itself (program order), as AQS's exclusiveOwnerThread. Read depth is per thread, kept
     * in a ThreadLocal of this guard: a nested read section must not wait, since a type that prefers
     * writers would make it wait for a writer that waits for the outer read section. The write hold's
     * count and token (and what its probe is told at the release) sit in writeHold, written plain by
     * the write holder only, so the write side's own release and acquisition order them from one
     * holder to the next; a read hold's sit in the reader's ThreadLocal Hold.
     *
     * Lock faces: a read hold taken by the write holder runs inline (no token), as a read section
     * inside a write section does; if the write holder then releases the write lock first (a
     * downgrade), the read side is entered beside the writer (Side.enterBesideWriter) before the
     * write side is released, so the thread keeps a real read hold.
     *
     * Probes: the write probe hears write sections in the order the write side serializes them, so it
     * may keep plain state (the LockProbe contract). The read probe hears read sections that overlap:
     * its acquired() may run on several threads at once, so it must be thread-safe for every call.
     */

    /** Taking and releasing one side of the lock; a token (a stamp, a node) goes from take to release. */
    abstract static class Side {
        private final LockProbe probe; // null without one; final
        private final boolean hearsFast; // final
        private final boolean timed; // final
        private final boolean releaseHeard; // final: the probe hears the release of a wait

        Side(LockProbe probe) {
            this.probe = LockProbe.orNull(probe);
            this.hearsFast = this.probe != null && this.probe.hearsFastPath();
            this.timed = this.probe != null && this.probe.timed();
            this.releaseHeard = this.probe != null && this.probe.hearsReleaseAfterWait();
        }

        /** Takes this side, waiting as long as it takes, not interruptibly; returns a non-zero token. */
        abstract long acquire();

        /** Takes this side if that needs no wait (as the lock's own first attempt would), else returns 0. */
        abstract long tryAcquire();

        /**
         * Takes this side, giving up at an interrupt (throwing {@link InterruptedException}, holding
         * nothing) or, when {@code timed}, once {@code System.nanoTime()} passes {@code deadline}
         * (returning 0); else returns a non-zero token. Only a type that offers the {@link Lock} faces
         * implements it.
         */
        long acquire(boolean timed, long deadline) throws InterruptedException {
            throw new UnsupportedOperationException("no Lock face: " + this);
        }

        /**
         * The read side only, called by the write holder: takes a read hold beside its own write hold
         * without waiting (no writer can be inside but the caller), for a downgrade. Only a type that
         * offers the {@link Lock} faces implements it.
         */
        long enterBesideWriter() {
            throw new UnsupportedOperationException("no Lock face: " + this);
        }

        /** Releases this side, taken with {@code token}. */
        abstract void release(long token);
    }

    /** A thread's hold of one side: how many, its token, and what the probe is told at the release. */
    private static final class Hold {
        int count; // 0 when not held; the outermost hold and the reentrant ones
        long token; // the side's token of the outermost hold; 0 for a read hold inline in a write hold
        boolean waited; // the outermost acquisition waited
        boolean report; // it was reported to acquired(), so its release may be reported too
        long asked; // nanoTime at the call, when measured
        long began; // nanoTime at the acquisition, when measured
        int readsInside; // the write Hold only: read holds the write holder took inline, still held
    }

    // How a hold is taken.
    private static final int LOCK = 0; // as Lock.lock(): waits, not interruptibly
    private static final int TRY = 1; // as Lock.tryLock(): no wait
    private static final int INTERRUPTIBLE = 2; // as Lock.lockInterruptibly()
    private static final int TIMED = 3; // as Lock.tryLock(time, unit)

    private final Side readSide;
    private final Side writeSide;
    private final ThreadLocal<Hold> readHold = ThreadLocal.withInitial(Hold::new); // per thread

    private final Hold writeHold = new Hold(); // plain, by the write holder only (see above)
    private Thread writer; // plain, by the write holder only; read plain by every caller (see above)

    ReadWriteGuard(Side readSide, Side writeSide) {
        this.readSide = readSide;
        this.writeSide = writeSide;
    }

    @Override
    public final <T> T call(Supplier<T> criticalSection) {
        return write(criticalSection);
    }

    @Override
    public final <T> T write(Supplier<T> writeSection) {
        lockWrite();
        try {
            return writeSection.get();
        } finally {
            unlockWrite();
        }
    }

    @Override
    public final <T> T read(Supplier<T> readSection) {
        Hold hold = readHold.get();
        lockRead(hold);
        try {
            return readSection.get();
        } finally {
            unlockRead(hold);
        }
    }

    // ------------------------------------------------------------------ the write hold

    /** Takes the write hold, waiting as long as it takes (an interrupt stays pending). */
    final void lockWrite() {
        Thread me = Thread.currentThread();
        if (writer == me) {
            reenter(writeHold);
            return;
        }
        refuseUpgrade();
        takeUninterruptibly(writeSide, writeHold);
        writer = me;
        reportAcquired(writeSide, writeHold);
    }

    /** Takes the write hold as {@code how} says; false when it gave up. */
    private boolean lockWrite(int how, long deadline) throws InterruptedException {
        Thread me = Thread.currentThread();
        if (writer == me) {
            reenter(writeHold);
            return true;
        }
        refuseUpgrade();
        if (!take(writeSide, writeHold, how, deadline)) {
            return false;
        }
        writer = me;
        reportAcquired(writeSide, writeHold);
        return true;
    }

    private void refuseUpgrade() {
        if (readHold.get().count > 0) {
            throw new IllegalStateException("a write hold inside a read hold of the same guard: no upgrade");
        }
    }

    /** Releases one write hold of the caller; the last releases the write side. */
    final void unlockWrite() {
        Hold hold = writeHold;
        if (writer != Thread.currentThread()) {
            throw new IllegalMonitorStateException(
                    "write unlock by a thread that does not hold the write lock: " + Thread.currentThread());
        }
        if (hold.count > 1) {
            hold.count--;
            return;
        }
        if (hold.readsInside > 0) { // a downgrade: keep a real read hold
            hold.readsInside = 0;
            Hold read = readHold.get();
            read.token = readSide.enterBesideWriter();
            read.report = false;
        }
        writer = null;
        give(writeSide, hold);
    }

    /** Whether the calling thread holds the write side. */
    final boolean writeHeldByCurrentThread() {
        return writer == Thread.currentThread();
    }

    /** The calling thread's write hold count (0 when it does not hold it). */
    final int writeHoldCount() {
        return writer == Thread.currentThread() ? writeHold.count : 0;
    }

    /** Whether some thread holds the write side; a plain read, for monitoring, not for synchronization. */
    final boolean writeLocked() {
        return writer != null;
    }

    // ------------------------------------------------------------------ the read hold

    /** Takes a read hold of the caller, whose Hold is {@code hold}, waiting as long as it takes. */
    private void lockRead(Hold hold) {
        if (hold.count > 0 || writer == Thread.currentThread()) {
            reenterRead(hold); // inline: a nested read, or a read inside the caller's own write hold
            return;
        }
        takeUninterruptibly(readSide, hold);
        reportAcquired(readSide, hold);
    }

    private boolean lockRead(int how, long deadline) throws InterruptedException {
        Hold hold = readHold.get();
        if (hold.count > 0 || writer == Thread.currentThread()) {
            reenterRead(hold);
            return true;
        }
        if (!take(readSide, hold, how, deadline)) {
            return false;
        }
        reportAcquired(readSide, hold);
        return true;
    }

    private void unlockRead(Hold hold) {
        if (hold.count == 0) {
            throw new IllegalMonitorStateException(
                    "read unlock by a thread that does not hold the read lock: " + Thread.currentThread());
        }
        if (hold.count > 1) {
            hold.count--;
        } else if (hold.token == 0L) {
            hold.count = 0; // inline in the caller's write hold: nothing taken
            writeHold.readsInside--;
        } else {
            give(readSide, hold);
        }
    }

    // ------------------------------------------------------------------ taking and giving a side

    private static void reenter(Hold hold) {
        if (hold.count == Integer.MAX_VALUE) {
            throw new Error("Maximum lock count exceeded");
        }
        hold.count++;
    }

    /** A read hold that takes nothing: nested in the caller's read hold, or inside its write hold. */
    private void reenterRead(Hold hold) {
        reenter(hold);
        if (hold.count == 1) { // inside the caller's write hold: the write holder counts it
            hold.token = 0L;
            hold.report = false;
            writeHold.readsInside++;
        }
    }

    /** Takes {@code side} for an outermost hold, waiting as long as it takes, and fills {@code hold}. */
    private static void takeUninterruptibly(Side side, Hold hold) {
        try {
            take(side, hold, LOCK, 0L);
        } catch (InterruptedException e) {
            throw new AssertionError("Side.acquire() does not throw", e);
        }
    }

    /** Takes {@code side} for an outermost hold as {@code how} says and fills {@code hold}; false if it gave up. */
    private static boolean take(Side side, Hold hold, int how, long deadline) throws InterruptedException {
        LockProbe probe = side.probe;
        long token;
        boolean waited = false;
        boolean report = false;
        long asked = 0L;
        long began = 0L;
        if (probe == null) {
            token = switch (how) {
                case LOCK -> side.acquire();
                case TRY -> side.tryAcquire();
                default -> side.acquire(how == TIMED, deadline);
            };
            if (token == 0L) {
                return false;
            }
        } else {
            asked = side.timed ? System.nanoTime() : 0L;
            token = side.tryAcquire();
            if (token != 0L) {
                report = side.hearsFast;
                began = side.timed ? System.nanoTime() : 0L;
            } else if (how == TRY) {
                return false;
            } else {
                waited = true;
                report = probe.wantsWaitNow() | side.hearsFast | side.timed; // asked at every wait: may begin it
                if (report && asked == 0L) {
                    asked = System.nanoTime();
                }
                token = how == LOCK ? side.acquire() : side.acquire(how == TIMED, deadline);
                if (token == 0L) {
                    return false;
                }
                began = report ? System.nanoTime() : 0L;
            }
        }
        hold.count = 1;
        hold.token = token;
        hold.waited = waited;
        hold.report = report;
        hold.asked = asked;
        hold.began = began;
        return true;
    }

    private static void reportAcquired(Side side, Hold hold) {
        if (hold.report) {
            side.probe.acquired(hold.waited, hold.began - hold.asked);
        }
    }

    /** Releases the outermost hold {@code hold} of {@code side}, then reports it if its probe hears releases. */
    private static void give(Side side, Hold hold) {
        long ended = side.timed ? System.nanoTime() : 0L;
        long token = hold.token;
        boolean report = hold.report;
        boolean waited = hold.waited;
        long asked = hold.asked;
        long began = hold.began;
        hold.count = 0; // before the release: the write Hold is the next holder's once it is released
        hold.token = 0L;
        hold.report = false;
        side.release(token);
        if (report && (side.timed || waited && side.releaseHeard)) {
            side.probe.released(waited, began - asked, (side.timed ? ended : System.nanoTime()) - began);
        }
    }

    // ------------------------------------------------------------------ the Lock faces

    /** The interrupt check of an interruptible or timed acquisition, made first, as the JDK's locks make it. */
    private static void checkInterrupt() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
    }

    /** The nanoTime {@code nanos} from now, saturated on overflow. */
    private static long deadlineAfter(long nanos) {
        long now = System.nanoTime();
        long deadline = now + Math.max(nanos, 0L);
        return deadline - now < 0L ? now + Long.MAX_VALUE : deadline;
    }

    /**
     * The read side as a {@link Lock}, as {@code ReentrantReadWriteLock.readLock()}: reentrant, taken
     * inline by the holder of the write lock; {@link #unlock()} by a thread without a read hold throws
     * {@link IllegalMonitorStateException}; no conditions.
     */
    public final class ReadLock implements Lock {

        ReadLock() {}

        @Override
        public void lock() {
            lockRead(readHold.get());
        }

        @Override
        public void lockInterruptibly() throws InterruptedException {
            checkInterrupt();
            lockRead(INTERRUPTIBLE, 0L);
        }

        @Override
        public boolean tryLock() {
            try {
                return lockRead(TRY, 0L);
            } catch (InterruptedException e) {
                throw new AssertionError("tryLock() does not wait", e);
            }
        }

        @Override
        public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
            long nanos = unit.toNanos(time);
            checkInterrupt();
            return nanos <= 0L ? lockRead(TRY, 0L) : lockRead(TIMED, deadlineAfter(nanos));
        }

        @Override
        public void unlock() {
            unlockRead(readHold.get());
        }

        /** Read holds have no conditions, as the JDK's read lock has none. */
        @Override
        public Condition newCondition() {
            throw new UnsupportedOperationException("a read lock has no conditions");
        }

        @Override
        public String toString() {
            return ReadWriteGuard.this + ".readLock";
        }
    }

    /**
     * The write side as a {@link Lock}, as {@code ReentrantReadWriteLock.writeLock()}: reentrant;
     * {@link #unlock()} by a thread that does not hold it throws {@link IllegalMonitorStateException};
     * its conditions' awaits release the whole write hold (readers can get in meanwhile) and take it
     * again before they return (see {@link QueueCondition}).
     */
    public final class WriteLock implements Lock {
        private final QueueCondition.Owner owner = new QueueCondition.Owner() { // final
                    @Override
                    public boolean isHeldByCurrentThread() {
                        return writeHeldByCurrentThread();
                    }

                    @Override
                    public int releaseAll() {
                        if (writeHold.readsInside > 0) {
                            throw new IllegalStateException("await on a write condition inside a read hold: the read"
                                    + " would be unguarded while the write lock is released");
                        }
                        int holds = writeHold.count;
                        writeHold.count = 1;
                        unlockWrite();
                        return holds;
                    }

                    @Override
                    public void reacquire(int holds) {
                        lockWrite();
                        writeHold.count = holds;
                    }
                };

        WriteLock() {}

        @Override
        public void lock() {
            lockWrite();
        }

        @Override
        public void lockInterruptibly() throws InterruptedException {
            checkInterrupt();
            lockWrite(INTERRUPTIBLE, 0L);
        }

        @Override
        public boolean tryLock() {
            try {
                return lockWrite(TRY, 0L);
            } catch (InterruptedException e) {
                throw new AssertionError("tryLock() does not wait", e);
            }
        }

        @Override
        public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
            long nanos = unit.toNanos(time);
            checkInterrupt();
            return nanos <= 0L ? lockWrite(TRY, 0L) : lockWrite(TIMED, deadlineAfter(nanos));
        }

        @Override
        public void unlock() {
            unlockWrite();
        }

        /**
         * A new condition of the write lock. An await by a thread that holds a read hold inside its
         * write hold throws {@link IllegalStateException}: releasing the write lock would leave that
         * read hold unguarded against writers.
         */
        @Override
        public Condition newCondition() {
            return new QueueCondition(owner);
        }

        /** Whether the calling thread holds the write lock. */
        public boolean isHeldByCurrentThread() {
            return writeHeldByCurrentThread();
        }

        /** The calling thread's write hold count: 0 when it does not hold the write lock. */
        public int getHoldCount() {
            return writeHoldCount();
        }

        /** Whether some thread holds the write lock; for monitoring, not for synchronization. */
        public boolean isLocked() {
            return writeLocked();
        }

        @Override
        public String toString() {
            return ReadWriteGuard.this + ".writeLock";
        }
    }
}
