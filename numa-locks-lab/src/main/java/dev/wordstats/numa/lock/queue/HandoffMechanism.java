package dev.wordstats.numa.lock.queue;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The mechanisms of {@link NumaHandoffLock}. The production lock has every one of them on; a
 * {@link NumaHandoffLockLab} can switch each off, so that its effect can be measured in and out.
 * The reservation has its own threshold ({@code reserveAfter}) and cannot be switched off.
 */
public enum HandoffMechanism {

    /**
     * A new owner's queue successor becomes the node's leader at once and is woken while the owner
     * runs its critical section, so the successor is running when the lock is released (ShflLock's
     * blocking variant). When the lock was passed, the passer wakes the successor, off the new
     * owner's path: the successor then waits on the passer's carrier, which the passer is about to
     * leave. Off: the successor becomes leader only at the release, as in {@link NumaMcsLock}.
     */
    WAKE_AHEAD,

    /**
     * A release wakes no parked waiter while another waiter is awake (Go's {@code mutexWoken}), and
     * at most {@code carriers - 1} waiters spin at a time (Malthusian locks); the others park.
     */
    ONE_AWAKE_WAITER,

    /**
     * A waiter spins only while the owner runs: when the owner is a virtual thread that is not
     * mounted and running, a platform waiter parks at once and a virtual one yields its carrier
     * (within its spin budget) instead of spinning (adaptive mutexes).
     */
    SPIN_WHILE_OWNER_RUNS,

    /**
     * A release hands the lock straight to the releaser's node leader when that leader is awake
     * and has led for a while ({@link NumaHandoffLock#DEFAULT_PASS_AFTER_NANOS}), up to a
     * budget of passes in a row; then the lock is released to every node. Needs {@link #WAKE_AHEAD}
     * to find an awake leader.
     */
    IN_NODE_PASS,

    /**
     * While a leader waits, a free lock may be taken without queueing only by its last owner (with
     * {@link #SLICE_PAIR}, also by the owner before), and only for
     * {@link NumaHandoffLock#SLICE_NANOS} from its first such retake; every other arriving thread
     * queues. The owner's time slice ends with a pass to the leader (or, once
     * the slice is over, with the owner queueing behind it), so the lock goes round the queue in
     * order (FIFO within a node) while short critical sections still run back to back on one
     * carrier. Off: any arriving thread may take a free lock (barging), as in {@link NumaMcsLock}.
     */
    TIME_SLICE,

    /**
     * With {@link #TIME_SLICE}: the slice is held by the last two owners, a pair. A slice holder that
     * finds the lock held spins a moment for it ({@link NumaHandoffLock#PARTNER_SPINS} rounds, while
     * the owner runs) instead of queueing, so on two carriers one of the pair runs its critical
     * section while the other runs its outside work, and they trade the lock with no thread switch
     * until their slices are over; and a release passes the lock only to a running leader, never to
     * one waiting for a carrier (which would stop the trade at a lock held by a thread that cannot
     * run). Off: the last owner alone holds the slice, and a release may pass to a leader that waits
     * for a carrier once it has led long enough.
     */
    SLICE_PAIR,

    /**
     * On several nodes, with {@link #IN_NODE_PASS}: a turn that would end with a pass to a leader
     * running on another node than the owner (a virtual thread that the JDK's scheduler resumed on
     * another node's carrier, say) lasts {@link NumaHandoffLock#REMOTE_TURN_FACTOR} times as long:
     * the leader must have led that much longer before it is passed the lock, and the owner's time
     * slice is that much longer meanwhile; so the lock crosses nodes less often (cohort locks). Off:
     * a leader is passed the lock once due, wherever it runs.
     */
    REMOTE_TURN;

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
