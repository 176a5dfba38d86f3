package dev.wordstats.numa.lock;

import java.util.Objects;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;

/**
 * The {@link Guard} of a type that is a {@link Lock} ({@link LockType#isLock()}): each critical section
 * runs on the caller, between {@code lock()} and {@code unlock()} of {@link #lock()}. The lock is the
 * type's own, with the guard's probe inside, so taking it directly or through the guard is the same.
 */
public final class LockGuard implements Guard {

    private final Lock lock;

    LockGuard(Lock lock) {
        this.lock = Objects.requireNonNull(lock, "lock");
    }

    /** A guard that takes {@code lock} around each critical section: the critical-section API for any lock. */
    public static LockGuard of(Lock lock) {
        return new LockGuard(lock);
    }

    @Override
    public <T> T call(Supplier<T> criticalSection) {
        lock.lock();
        try {
            return criticalSection.get();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void run(Runnable criticalSection) {
        lock.lock();
        try {
            criticalSection.run();
        } finally {
            lock.unlock();
        }
    }

    /** The lock this guard takes: usable on its own, as any {@link Lock}. */
    public Lock lock() {
        return lock;
    }

    @Override
    public String toString() {
        return "LockGuard[" + lock + "]";
    }
}
