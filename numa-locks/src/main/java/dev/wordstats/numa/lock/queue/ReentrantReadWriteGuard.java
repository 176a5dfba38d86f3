package dev.wordstats.numa.lock.queue;

import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.probe.LockProbe;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * {@link LockType#FAIR_REENTRANT_RW} and {@link LockType#UNFAIR_REENTRANT_RW}: the JDK's
 * {@link ReentrantReadWriteLock}, its read lock around read sections and its write lock around write
 * sections. With a probe, the first attempt honours the lock's fairness: {@code tryLock(0, NANOSECONDS)}
 * for a fair lock (which does not barge), {@code tryLock()} for a non-fair one (which its {@code lock()}
 * tries first anyway).
 */
public final class ReentrantReadWriteGuard extends ReadWriteGuard {

    private final ReentrantReadWriteLock lock; // final; the JDK lock's own state is its synchronization

    private ReentrantReadWriteGuard(ReentrantReadWriteLock lock, LockProbe readProbe, LockProbe writeProbe) {
        super(side(lock.readLock(), lock.isFair(), readProbe), side(lock.writeLock(), lock.isFair(), writeProbe));
        this.lock = lock;
    }

    /** A guard over a new {@link ReentrantReadWriteLock}, fair or not, reporting to the two probes. */
    public static ReentrantReadWriteGuard create(boolean fair, LockProbe readProbe, LockProbe writeProbe) {
        return new ReentrantReadWriteGuard(new ReentrantReadWriteLock(fair), readProbe, writeProbe);
    }

    private static Side side(Lock lock, boolean fair, LockProbe probe) {
        return new Side(probe) {
            @Override
            long acquire() {
                lock.lock();
                return 1L;
            }

            @Override
            long tryAcquire() {
                if (!fair) {
                    return lock.tryLock() ? 1L : 0L;
                }
                try {
                    return lock.tryLock(0L, TimeUnit.NANOSECONDS) ? 1L : 0L;
                } catch (InterruptedException e) {
                    // sections do not wait interruptibly: keep the status and take the slow path
                    Thread.currentThread().interrupt();
                    return 0L;
                }
            }

            @Override
            void release(long token) {
                lock.unlock();
            }
        };
    }

    @Override
    public String toString() {
        return "ReentrantReadWriteGuard[" + lock + "]";
    }
}
