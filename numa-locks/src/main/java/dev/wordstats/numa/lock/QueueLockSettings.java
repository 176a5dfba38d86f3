package dev.wordstats.numa.lock;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the queue locks, {@link LockType#NUMA_MCS} and {@link LockType#NUMA_HANDOFF}, and of
 * {@link LockType#NUMA_MONITOR}'s queued mode.
 *
 * @param reserveAfter how long a node queue's leader may wait for the lock before it reserves it, so
 *                     that arriving threads can no longer overtake it (see {@link LockType#NUMA_MCS}); not
 *                     negative. Shorter: fairer, fewer in-node runs; longer: more locality, a longer tail. For
 *                     {@link LockType#NUMA_RW} also how long readers keep entering once a writer has queued
 *                     (its writers' lock is a NUMA_HANDOFF lock with this bound)
 */
public record QueueLockSettings(Duration reserveAfter) {

    /** The defaults: a reservation after 1 ms, the bound of Go's {@code sync.Mutex}. */
    public static final QueueLockSettings DEFAULTS = new QueueLockSettings(Duration.ofMillis(1));

    public QueueLockSettings {
        Objects.requireNonNull(reserveAfter, "reserveAfter");
        if (reserveAfter.isNegative()) {
            throw new IllegalArgumentException("reserveAfter must not be negative, was " + reserveAfter);
        }
    }
}
