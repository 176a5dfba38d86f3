package dev.wordstats.numa.lock.probe;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** JFR: an adaptive lock switched mode ({@link LockProbe#modeSwitched}), committed by {@link JfrLockProbe}. */
@Name(LockEvents.MODE_SWITCH)
@Label("Lock Mode Switch")
@Category(LockEvents.CATEGORY)
@Description("An adaptive wordstats lock switched between its lean and its queued mode")
@StackTrace(true)
final class LockModeSwitchEvent extends LockEvent {

    @Label("Lock Type")
    @Description("The LockType of the lock")
    String lockType;

    @Label("Lock Id")
    @Description("Identifies the lock instance for the life of the JVM")
    long lockId;

    @Label("Mode")
    @Description("The mode switched into: queued or lean")
    String mode;
}
