package dev.wordstats.numa.lock;

import java.util.Objects;

/**
 * The settings of every lock family, for {@link LockType#create(LockContext, LockSettings, LockProbe)}:
 * one record per family, and each type reads only its own family's. So one configuration serves
 * whichever type is chosen at run time (a yml value, a JMH parameter), and each family's knobs are
 * validated and documented in its own record.
 *
 * @param queue     {@link LockType#NUMA_MCS}, {@link LockType#NUMA_HANDOFF}, {@link LockType#NUMA_ADAPTIVE}
 * @param combining {@link LockType#COMBINING}, {@link LockType#NUMA_COMBINING}
 */
public record LockSettings(QueueLockSettings queue, CombiningSettings combining) {

    /** Every family's defaults. */
    public static final LockSettings DEFAULTS =
            new LockSettings(QueueLockSettings.DEFAULTS, CombiningSettings.DEFAULTS);

    public LockSettings {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(combining, "combining");
    }

    /** These settings with the queue locks' replaced. */
    public LockSettings with(QueueLockSettings queue) {
        return new LockSettings(queue, combining);
    }

    /** These settings with the combining locks' replaced. */
    public LockSettings with(CombiningSettings combining) {
        return new LockSettings(queue, combining);
    }
}
