package dev.wordstats.numa.lock.probe;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Throttle;
import jdk.jfr.Timespan;

/**
 * JFR: a combiner of a combining lock ran a batch of its waiters' critical sections
 * ({@link LockProbe#combined}), committed by {@link JfrLockProbe}. Under contention there is one per
 * combiner handover, so it is off by default and throttled when on ({@code wordstats-locks.jfc} turns it
 * on at 1000 a second).
 */
@Name(LockEvents.COMBINING_BATCH)
@Label("Combining Batch")
@Category(LockEvents.CATEGORY)
@Description("A combiner of a wordstats combining lock ran critical sections of its waiters back to back")
@Enabled(false)
@Throttle("1000/s")
@StackTrace(false)
final class CombiningBatchEvent extends LockEvent {

    @Label("Lock Type")
    @Description("The LockType of the lock")
    String lockType;

    @Label("Lock Id")
    @Description("Identifies the lock instance for the life of the JVM")
    long lockId;

    @Label("Batch Size")
    @Description("The waiters' critical sections the combiner ran (its own not counted)")
    int size;

    @Label("Batch Length")
    @Description("From the start of the first of them to the end of the last")
    @Timespan(Timespan.NANOSECONDS)
    long length;
}
