package dev.wordstats.numa.lock;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the combining locks, {@link LockType#COMBINING} and {@link LockType#NUMA_COMBINING}: the
 * bounds of one combiner's batch (see {@code CombiningLock}). The locks live in {@code numa-locks-lab}
 * ({@link LockType#isInLab()}); their settings stay here, in {@link LockSettings}, so one configuration
 * binds with or without them.
 *
 * @param limit how many critical sections of other threads one combiner runs before it hands the
 *              combiner role to the next waiter; at least 1. Larger: fewer handovers (each costs a
 *              wake-up while the lock is idle), a longer wait for the combiner's own caller
 * @param time  how long one combiner may run critical sections of other threads before it hands the role
 *              on, checked after each one (so one long critical section can overshoot it); not negative
 */
public record CombiningSettings(int limit, Duration time) {

    /** How many critical sections of others a combiner runs at most, by default. */
    public static final int DEFAULT_LIMIT = 64;

    /** How long a combiner runs critical sections of others at most, by default. */
    public static final Duration DEFAULT_TIME = Duration.ofNanos(50_000);

    /** The defaults: {@link #DEFAULT_LIMIT} and {@link #DEFAULT_TIME}. */
    public static final CombiningSettings DEFAULTS = new CombiningSettings(DEFAULT_LIMIT, DEFAULT_TIME);

    public CombiningSettings {
        if (limit < 1) {
            throw new IllegalArgumentException("combineLimit must be at least 1, was " + limit);
        }
        Objects.requireNonNull(time, "time");
        if (time.isNegative()) {
            throw new IllegalArgumentException("combineTime must not be negative, was " + time);
        }
    }
}
