package dev.wordstats.numa.lock.probe;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR: a node queue's leader of a queue lock took the reservation ({@link LockProbe#reserved}), committed
 * by {@link JfrLockProbe}. Rare (at most one per leader that waited past the reservation threshold), so
 * on by default, with a stack trace.
 */
@Name(LockEvents.RESERVATION)
@Label("Lock Reservation")
@Category(LockEvents.CATEGORY)
@Description("A queue leader of a wordstats lock waited past the reservation threshold and reserved the lock:"
        + " arrivals no longer overtake it")
@StackTrace(true)
final class LockReservationEvent extends LockEvent {

    @Label("Lock Type")
    @Description("The LockType of the lock")
    String lockType;

    @Label("Lock Id")
    @Description("Identifies the lock instance for the life of the JVM")
    long lockId;

    @Label("Node")
    @Description("The NUMA node of the leader that reserved")
    int node;
}
