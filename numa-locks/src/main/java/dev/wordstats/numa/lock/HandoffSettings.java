package dev.wordstats.numa.lock;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * The knobs of {@link NumaHandoffLock}'s constructors: the reservation threshold and the mechanisms
 * switched on (all by default; fewer to measure what each one brings).
 *
 * @param reserveAfter      how long a node queue's leader may wait for the lock before it reserves it;
 *                          not negative
 * @param handoffMechanisms the mechanisms switched on
 */
public record HandoffSettings(Duration reserveAfter, Set<HandoffMechanism> handoffMechanisms) {

    /** The default reservation threshold with every mechanism. */
    public static final HandoffSettings DEFAULTS = new HandoffSettings(NumaMcsLock.DEFAULT_RESERVE_AFTER);

    public HandoffSettings {
        Objects.requireNonNull(reserveAfter, "reserveAfter");
        if (reserveAfter.isNegative()) {
            throw new IllegalArgumentException("reserveAfter must not be negative, was " + reserveAfter);
        }
        Objects.requireNonNull(handoffMechanisms, "handoffMechanisms");
        handoffMechanisms = handoffMechanisms.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(handoffMechanisms));
    }

    /** The given reservation threshold with every mechanism on. */
    public HandoffSettings(Duration reserveAfter) {
        this(reserveAfter, HandoffMechanism.all());
    }
}
