package dev.wordstats.numa.lock;

import java.time.Duration;
import java.util.Objects;

/**
 * Tuning of the lock algorithms, for {@link LockType#create(dev.wordstats.numa.topology.NodeLocator,
 * LockSettings)}. A type ignores the settings it has no use for, so one configuration serves
 * whichever type is chosen.
 *
 * @param reserveAfter {@link LockType#NUMA_MCS}: how long a node queue's leader may wait for the
 *                     lock before it reserves it (see {@link NumaMcsLock#reserveAfter()}); not
 *                     negative
 */
public record LockSettings(Duration reserveAfter) {

    /** The defaults: {@link NumaMcsLock#DEFAULT_RESERVE_AFTER}. */
    public static final LockSettings DEFAULTS = new LockSettings(NumaMcsLock.DEFAULT_RESERVE_AFTER);

    public LockSettings {
        Objects.requireNonNull(reserveAfter, "reserveAfter");
        if (reserveAfter.isNegative()) {
            throw new IllegalArgumentException("reserveAfter must not be negative, was " + reserveAfter);
        }
    }
}
