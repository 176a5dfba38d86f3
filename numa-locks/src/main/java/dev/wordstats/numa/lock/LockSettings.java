package dev.wordstats.numa.lock;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Tuning of the lock algorithms, for {@link LockType#create(dev.wordstats.numa.topology.NodeLocator,
 * LockSettings)}. A type ignores the settings it has no use for, so one configuration serves
 * whichever type is chosen.
 *
 * @param reserveAfter      {@link LockType#NUMA_MCS} and {@link LockType#NUMA_HANDOFF}: how long a
 *                          node queue's leader may wait for the lock before it reserves it (see
 *                          {@link NumaMcsLock#reserveAfter()}); not negative
 * @param handoffMechanisms {@link LockType#NUMA_HANDOFF}: the mechanisms switched on (all by
 *                          default; fewer to measure what each one brings)
 */
public record LockSettings(Duration reserveAfter, Set<HandoffMechanism> handoffMechanisms) {

    /** The defaults: {@link NumaMcsLock#DEFAULT_RESERVE_AFTER} and every handoff mechanism. */
    public static final LockSettings DEFAULTS = new LockSettings(NumaMcsLock.DEFAULT_RESERVE_AFTER);

    public LockSettings {
        Objects.requireNonNull(reserveAfter, "reserveAfter");
        if (reserveAfter.isNegative()) {
            throw new IllegalArgumentException("reserveAfter must not be negative, was " + reserveAfter);
        }
        Objects.requireNonNull(handoffMechanisms, "handoffMechanisms");
        handoffMechanisms = handoffMechanisms.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(handoffMechanisms));
    }

    /** The given reservation threshold with every handoff mechanism on. */
    public LockSettings(Duration reserveAfter) {
        this(reserveAfter, HandoffMechanism.all());
    }
}
