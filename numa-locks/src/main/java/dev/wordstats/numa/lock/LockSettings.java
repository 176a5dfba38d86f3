package dev.wordstats.numa.lock;

import java.time.Duration;
import java.util.Objects;

/**
 * Tuning of the lock algorithms, for {@link LockType#create(dev.wordstats.numa.topology.NodeLocator,
 * LockSettings)} and {@link LockType#createGuard(dev.wordstats.numa.topology.NodeLocator, LockSettings)}.
 * A type ignores the settings it has no use for, so one configuration serves whichever type is chosen.
 *
 * @param reserveAfter      {@link LockType#NUMA_MCS} and {@link LockType#NUMA_HANDOFF}: how long a
 *                          node queue's leader may wait for the lock before it reserves it (see
 *                          {@link NumaMcsLock#reserveAfter()}); not negative
 * @param combineLimit      {@link LockType#COMBINING} and {@link LockType#NUMA_COMBINING}: how many
 *                          critical sections of other threads one combiner runs before it hands the
 *                          combiner role to the next waiter (see {@link CombiningLock}); at least 1.
 *                          Larger: fewer handovers (each costs a wake-up while the lock is idle), a
 *                          longer wait for the combiner's own caller
 * @param combineTime       {@link LockType#COMBINING} and {@link LockType#NUMA_COMBINING}: how long one
 *                          combiner may run critical sections of other threads before it hands the
 *                          role on, checked after each one (so one long critical section can overshoot
 *                          it); not negative
 */
public record LockSettings(Duration reserveAfter, int combineLimit, Duration combineTime) {

    /**
     * The defaults: {@link NumaMcsLock#DEFAULT_RESERVE_AFTER} and {@link CombiningLock}'s batch bounds.
     */
    public static final LockSettings DEFAULTS = new LockSettings(NumaMcsLock.DEFAULT_RESERVE_AFTER);

    public LockSettings {
        Objects.requireNonNull(reserveAfter, "reserveAfter");
        if (reserveAfter.isNegative()) {
            throw new IllegalArgumentException("reserveAfter must not be negative, was " + reserveAfter);
        }
        if (combineLimit < 1) {
            throw new IllegalArgumentException("combineLimit must be at least 1, was " + combineLimit);
        }
        Objects.requireNonNull(combineTime, "combineTime");
        if (combineTime.isNegative()) {
            throw new IllegalArgumentException("combineTime must not be negative, was " + combineTime);
        }
    }

    /** The given reservation threshold with the default combining bounds. */
    public LockSettings(Duration reserveAfter) {
        this(reserveAfter, CombiningLock.DEFAULT_COMBINE_LIMIT, CombiningLock.DEFAULT_COMBINE_TIME);
    }

    /** These settings with the combining bounds replaced. */
    public LockSettings withCombining(int limit, Duration time) {
        return new LockSettings(reserveAfter, limit, time);
    }
}
