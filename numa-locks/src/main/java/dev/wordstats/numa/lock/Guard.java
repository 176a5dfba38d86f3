package dev.wordstats.numa.lock;

import dev.wordstats.numa.lock.probe.CountingProbe;
import dev.wordstats.numa.lock.probe.LockProbe;
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
 *
 * <p><b>Read and write sections.</b> {@link #read} and {@link #write} say what a critical section does
 * with the guarded data. A reader-writer type ({@link LockType#FAIR_REENTRANT_RW},
 * {@link LockType#UNFAIR_REENTRANT_RW}, {@link LockType#STAMPED}, {@link LockType#NUMA_RW}) lets read
 * sections overlap each other, never a write section; write sections (and {@link #call}, which is one)
 * exclude every other section, and each section sees every write section that ran before it. Every
 * other type runs both as its exclusive critical sections. A read or write section inside a write
 * section of the same guard runs inline, a read section inside a read section too; a write section
 * inside a read section of a reader-writer type throws {@link IllegalStateException} (no upgrade: two
 * readers upgrading would wait for each other). A read section must only read: it may run beside other
 * read sections.
 */
public interface Guard {

    /** Runs {@code criticalSection} under mutual exclusion and returns what it returns. */
    <T> T call(Supplier<T> criticalSection);

    /**
     * Runs {@code readSection}, which only reads the guarded data, beside other read sections of a
     * reader-writer type and apart from every write section; an exclusive type runs it as {@link #call}.
     */
    default <T> T read(Supplier<T> readSection) {
        return call(readSection);
    }

    /** Runs {@code writeSection} apart from every other section: the same as {@link #call}. */
    default <T> T write(Supplier<T> writeSection) {
        return call(writeSection);
    }

    /** Runs {@code criticalSection} under mutual exclusion. */
    default void run(Runnable criticalSection) {
        call(() -> {
            criticalSection.run();
            return null;
        });
    }
}
