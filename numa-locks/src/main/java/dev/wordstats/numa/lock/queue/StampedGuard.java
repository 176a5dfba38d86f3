package dev.wordstats.numa.lock.queue;

import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.probe.LockProbe;
import java.util.concurrent.locks.StampedLock;

/**
 * {@link LockType#STAMPED}: the JDK's {@link StampedLock}, its read lock around read sections and its
 * write lock around write sections. It offers no optimistic reads: an optimistic read runs beside a
 * writer and validates afterwards, which is safe only for a section that can read a torn state without
 * harm and retry; a read of a {@code HashMap} that a writer is resizing can loop or throw before it gets
 * to validate. {@link StampedLock} is not reentrant; {@link ReadWriteGuard} gives the guard its
 * reentrancy.
 */
public final class StampedGuard extends ReadWriteGuard {

    private final StampedLock lock; // final; the JDK lock's own state is its synchronization

    private StampedGuard(StampedLock lock, LockProbe readProbe, LockProbe writeProbe) {
        super(readSide(lock, readProbe), writeSide(lock, writeProbe));
        this.lock = lock;
    }

    /** A guard over a new {@link StampedLock} reporting to the two probes. */
    public static StampedGuard create(LockProbe readProbe, LockProbe writeProbe) {
        return new StampedGuard(new StampedLock(), readProbe, writeProbe);
    }

    private static Side readSide(StampedLock lock, LockProbe probe) {
        return new Side(probe) {
            @Override
            long acquire() {
                return lock.readLock();
            }

            @Override
            long tryAcquire() {
                return lock.tryReadLock();
            }

            @Override
            void release(long stamp) {
                lock.unlockRead(stamp);
            }
        };
    }

    private static Side writeSide(StampedLock lock, LockProbe probe) {
        return new Side(probe) {
            @Override
            long acquire() {
                return lock.writeLock();
            }

            @Override
            long tryAcquire() {
                return lock.tryWriteLock();
            }

            @Override
            void release(long stamp) {
                lock.unlockWrite(stamp);
            }
        };
    }

    @Override
    public String toString() {
        return "StampedGuard[" + lock + "]";
    }
}
