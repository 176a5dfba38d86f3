package dev.wordstats.numa.lock;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The mechanisms of {@link NumaHandoffLock}, each of which can be switched off (through
 * {@link LockSettings#handoffMechanisms()}) so that its effect can be measured in and out. The
 * reservation, the fourth guard, has its own threshold ({@link LockSettings#reserveAfter()}).
 */
public enum HandoffMechanism {

    /**
     * A new owner makes its queue successor the node's leader at once, waking it while the owner
     * runs its critical section, so the successor is running when the lock is released (ShflLock's
     * blocking variant). Off: the successor becomes leader only at the release, as in
     * {@link NumaMcsLock}.
     */
    WAKE_AHEAD,

    /**
     * A release wakes no parked waiter while another waiter is awake (Go's {@code mutexWoken}), and
     * at most {@code carriers - 1} waiters spin at a time (Malthusian locks); the others park.
     */
    ONE_AWAKE_WAITER,

    /**
     * A waiter spins only while the owner runs: when the owner is a virtual thread that is not
     * mounted and running, the waiter parks at once (adaptive mutexes).
     */
    SPIN_WHILE_OWNER_RUNS,

    /**
     * A release hands the lock straight to the releaser's node leader when that leader is awake, up
     * to a budget of passes in a row; then the lock is released to every node. Needs
     * {@link #WAKE_AHEAD} to find an awake leader.
     */
    IN_NODE_PASS;

    /** Every mechanism: the default. */
    public static Set<HandoffMechanism> all() {
        return EnumSet.allOf(HandoffMechanism.class);
    }

    /**
     * Every mechanism except those named in {@code names}, a comma-separated list ({@code "none"}
     * or empty for none), ignoring case and accepting {@code -} for {@code _}.
     *
     * @throws IllegalArgumentException naming the allowed values when a name matches nothing
     */
    public static Set<HandoffMechanism> allExcept(String names) {
        Set<HandoffMechanism> on = all();
        for (String raw : names.split(",")) {
            String name = raw.trim().replace('-', '_').toUpperCase(Locale.ROOT);
            if (name.isEmpty() || name.equals("NONE")) {
                continue;
            }
            try {
                on.remove(valueOf(name));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "unknown handoff mechanism '" + raw.trim() + "'; allowed: none, "
                                + EnumSet.allOf(HandoffMechanism.class),
                        e);
            }
        }
        return on;
    }
}
