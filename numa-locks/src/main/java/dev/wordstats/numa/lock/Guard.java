package dev.wordstats.numa.lock;

import java.util.function.Supplier;

/**
 * Runs critical sections one at a time: the API every {@link LockType} offers. A type that is a
 * {@link java.util.concurrent.locks.Lock} runs a critical section on the caller's thread between
 * {@code lock()} and {@code unlock()}; a delegating type (a combining lock) may run it on the thread
 * that holds the lock at that moment, which is why a critical section is handed over as a lambda.
 *
 * <p>The contract, for every type:
 * <ul>
 *   <li>mutual exclusion: no two critical sections of one guard overlap, and each sees every
 *       write of the ones that ran before it (a happens-before edge from each to the next);
 *   <li>{@link #call} returns the critical section's result to its caller, and an exception or
 *       error the critical section throws reaches its caller, unchanged; the guard stays usable;
 *   <li>a call made from inside a critical section of the same guard runs at once, inline
 *       (reentrancy);
 *   <li>waiting is not interruptible, as with {@code Lock.lock()}: an interrupt stays pending.
 * </ul>
 * Create one with {@link LockType#create(LockContext, LockSettings, LockProbe)}, given a
 * {@link LockProbe} (e.g. a {@link CountingProbe}) for one that reports its acquisitions.
 */
public interface Guard {

    /** Runs {@code criticalSection} under mutual exclusion and returns what it returns. */
    <T> T call(Supplier<T> criticalSection);

    /** Runs {@code criticalSection} under mutual exclusion. */
    default void run(Runnable criticalSection) {
        call(() -> {
            criticalSection.run();
            return null;
        });
    }
}
