package dev.wordstats.service.counts;

import dev.wordstats.numa.lock.probe.LockTimer;

/**
 * Where the stripe locks' wait and hold times go, split by access: the read sections of a reader-writer
 * lock type ({@code access=read} on the lock meters) and every other section ({@code access=write}: the
 * writes, and every section of an exclusive type).
 */
public interface StripeLockTimers {

    /** Times of read sections; called by overlapping readers, so thread-safe. */
    LockTimer reads();

    /** Times of write sections, and of every section of an exclusive type. */
    LockTimer writes();
}
