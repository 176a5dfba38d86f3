package dev.wordstats.numa.lock;

import java.util.Objects;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;

/** The {@link Guard} of a type that is a {@link Lock}: the critical section runs on the caller, lock to unlock. */
final class LockGuard implements Guard {

    private final LockType type;
    private final Lock lock;

    LockGuard(LockType type, Lock lock) {
        this.type = Objects.requireNonNull(type, "type");
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
        return type;
    }

    /** The lock this guard takes. */
    Lock lock() {
        return lock;
    }

    @Override
    public String toString() {
        return "LockGuard[" + lock + "]";
    }
}
