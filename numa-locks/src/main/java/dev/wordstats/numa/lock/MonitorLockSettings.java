package dev.wordstats.numa.lock;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of {@link LockType#NUMA_MONITOR} ({@link NumaMonitorLock}), whose queued mode also reads
 * {@link QueueLockSettings}.
 *
 * @param handoffAfter the bound on a wait: a caller that waited this long for the lock turns it to in-order
 *                     handoff ({@link LockType#NUMA_HANDOFF}'s queue) until the callers that were waiting then
 *                     have been served; not negative. Shorter: shorter longest waits, more turns of handoff,
 *                     which cost throughput where threads work outside the lock; longer: the JVM's monitor
 *                     longer, and waits up to this long (see {@link NumaMonitorLock})
 */
public record MonitorLockSettings(Duration handoffAfter) {

    /** The defaults: {@link NumaMonitorLock#DEFAULT_HANDOFF_AFTER}. */
    public static final MonitorLockSettings DEFAULTS = new MonitorLockSettings(NumaMonitorLock.DEFAULT_HANDOFF_AFTER);

    public MonitorLockSettings {
        checked(handoffAfter);
    }

    /** {@code handoffAfter}, checked: not null, not negative. */
    static Duration checked(Duration handoffAfter) {
        Objects.requireNonNull(handoffAfter, "handoffAfter");
        if (handoffAfter.isNegative()) {
            throw new IllegalArgumentException("handoffAfter must not be negative, was " + handoffAfter);
        }
        return handoffAfter;
    }

    /** {@code duration} in nanoseconds, at most {@link Long#MAX_VALUE} (about 292 years). */
    static long saturatedNanos(Duration duration) {
        return duration.compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : duration.toNanos();
    }
}
