package dev.wordstats.numa.lock;

import dev.wordstats.numa.lock.probe.LockProbe;
import java.util.Objects;

/**
 * The settings of every lock family, for {@link LockType#create(LockContext, LockSettings, LockProbe)}:
 * one record per family, and each type reads only its own family's. So one configuration serves
 * whichever type is chosen at run time (a yml value, a JMH parameter), and each family's knobs are
 * validated and documented in its own record.
 *
 * @param queue     {@link LockType#NUMA_MCS}, {@link LockType#NUMA_HANDOFF}, and {@link LockType#NUMA_MONITOR}'s
 *                  queued mode
 * @param combining {@link LockType#COMBINING}, {@link LockType#NUMA_COMBINING}
 * @param monitor   {@link LockType#NUMA_MONITOR} (whose queued mode reads {@code queue} too)
 */
public record LockSettings(QueueLockSettings queue, CombiningSettings combining, MonitorLockSettings monitor) {

    /** Every family's defaults. */
    public static final LockSettings DEFAULTS =
            new LockSettings(QueueLockSettings.DEFAULTS, CombiningSettings.DEFAULTS, MonitorLockSettings.DEFAULTS);

    public LockSettings {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(combining, "combining");
        Objects.requireNonNull(monitor, "monitor");
    }

    /** These settings with the queue locks' replaced. */
    public LockSettings with(QueueLockSettings queue) {
        return new LockSettings(queue, combining, monitor);
    }

    /** These settings with the combining locks' replaced. */
    public LockSettings with(CombiningSettings combining) {
        return new LockSettings(queue, combining, monitor);
    }

    /** These settings with {@link LockType#NUMA_MONITOR}'s replaced. */
    public LockSettings with(MonitorLockSettings monitor) {
        return new LockSettings(queue, combining, monitor);
    }
}
