package dev.wordstats.numa.lock;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * The {@link ObservedGuard} of a type that is a {@link java.util.concurrent.locks.Lock}: an
 * {@link ObservedLock} taken around each critical section, so the fast path is the type's own
 * first-attempt acquisition ({@link LockType#tryFast}) and the counts are exactly those of the lock.
 */
final class ObservedLockGuard implements ObservedGuard {

    private final ObservedLock lock;

    ObservedLockGuard(ObservedLock lock) {
        this.lock = Objects.requireNonNull(lock, "lock");
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

    @Override
    public LockType type() {
        return lock.type();
    }

    @Override
    public LockStats stats() {
        return lock.stats();
    }

    @Override
    public long[] acquisitionsByNode() {
        return lock.acquisitionsByNode();
    }

    /** The observed lock this guard takes. */
    ObservedLock lock() {
        return lock;
    }

    @Override
    public String toString() {
        return "ObservedLockGuard[" + lock + "]";
    }
}
