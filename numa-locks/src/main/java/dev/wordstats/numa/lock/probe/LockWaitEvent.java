package dev.wordstats.numa.lock.probe;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;
import jdk.jfr.Timespan;

/**
 * JFR: an acquisition of one of the library's locks that had to wait, written by {@link JfrLockProbe}. The
 * event is the wait, as {@code jdk.JavaMonitorEnter} is: it begins when the caller starts to wait (the lock
 * asks {@link LockProbe#wantsWaitNow()}), ends when it has the lock, and is committed after the release, so
 * nothing is written inside the critical section. JFR's own {@code threshold} filters it by that duration
 * (default 20 ms, as for the JDK's lock events; {@code wordstats-locks.jfc} sets 10 us). {@code waitTime}
 * repeats the wait as the lock measured it.
 */
@Name(LockEvents.WAIT)
@Label("Lock Wait")
@Category(LockEvents.CATEGORY)
@Description("An acquisition of a wordstats lock that had to wait, from the start of the wait to the acquisition:"
        + " the lock, the waiter's NUMA node, and whether the lock came from a holder on the same node")
@StackTrace(true)
@Threshold("20 ms")
final class LockWaitEvent extends LockEvent {

    @Label("Lock Type")
    @Description("The LockType of the lock, the name used in configuration, benchmarks and metric tags")
    String lockType;

    @Label("Lock Id")
    @Description("Identifies the lock instance for the life of the JVM: group by it to see one lock")
    long lockId;

    @Label("Wait Time")
    @Description("The wait as the lock measured it, from the call that asked for the lock to the acquisition"
            + " (the event's duration, repeated)")
    @Timespan(Timespan.NANOSECONDS)
    long waitTime;

    @Label("Node")
    @Description("The NUMA node (real or simulated) of the thread that took the lock")
    int node;

    @Label("Handoff")
    @Description("same_node or cross_node: the previous acquisition this probe heard ran on the same or on another"
            + " node; unknown for the first")
    String handoff;
}
