package dev.wordstats.numa.lock;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.SettingDefinition;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * JFR: an acquisition of one of the library's locks that had to wait, committed by {@link JfrLockProbe}.
 * The lock reports the wait once it is over (the {@link LockProbe} contract), so the event is written at
 * the acquisition: its start time is the moment the lock was taken and its {@code waitTime} field holds
 * the wait, which the {@code waitThreshold} setting filters as the JDK's {@code threshold} filters the
 * duration of {@code jdk.JavaMonitorEnter} (default 20 ms, as there; {@code wordstats-locks.jfc} sets
 * 10 us).
 */
@Name(LockEvents.WAIT)
@Label("Lock Wait")
@Category(LockEvents.CATEGORY)
@Description("An acquisition of a wordstats lock that had to wait: the lock, the waiter's NUMA node, the wait,"
        + " and whether the lock came from a holder on the same node")
@StackTrace(true)
final class LockWaitEvent extends LockEvent {

    @Label("Lock Type")
    @Description("The LockType of the lock, the name used in configuration, benchmarks and metric tags")
    String lockType;

    @Label("Lock Id")
    @Description("Identifies the lock instance for the life of the JVM: group by it to see one lock")
    long lockId;

    @Label("Wait Time")
    @Description("From the call that asked for the lock to the acquisition")
    @Timespan(Timespan.NANOSECONDS)
    long waitTime;

    @Label("Node")
    @Description("The NUMA node (real or simulated) of the thread that took the lock")
    int node;

    @Label("Handoff")
    @Description("same_node or cross_node: the previous acquisition this probe heard ran on the same or on another"
            + " node; unknown for the first")
    String handoff;

    @Label("Wait Threshold")
    @Description("Only waits at least this long are recorded (like the threshold of the JDK's lock events)")
    @Name("waitThreshold")
    @SettingDefinition
    boolean waitThreshold(WaitThresholdSetting threshold) {
        return waitTime >= threshold.nanos();
    }
}
