package dev.wordstats.numa.lock;

import jdk.jfr.Event;
import jdk.jfr.events.StackFilter;

/**
 * The base of the library's JFR events: their stack traces start at the caller of the lock. An event is
 * committed by {@link JfrLockProbe}, called by the lock, called by the application; without a filter the
 * top frames of every stack would be the library's own, so JMC's "top frame" would put every wait on the
 * probe and {@code jfr print}'s default depth would not reach the caller. JFR drops the top frames whose
 * class is listed here (the probes and the classes of the locks a call goes through on its way to one), as
 * it does for its own events in the JDK's I/O classes.
 *
 * <p>{@code StackFilter} is the JDK's own annotation for that ({@code jdk.jfr.events}, not exported: the
 * module is compiled with {@code --add-exports jdk.jfr/jdk.jfr.events=dev.wordstats.numa}; at run time JFR
 * reads it as it reads any event annotation, and no flag is needed). A JDK without the annotation would
 * write the events untrimmed. A new class on the way from a lock's entry to the probe must be added to the
 * list; {@code LockEventsRecordingTest} checks every lock type's top frame. The list names the classes of the
 * types in the lab too ({@code CombiningLock}, {@code NumaCombiningLock}, in {@code numa-locks-lab}): they
 * report through this package's probes and events, and JFR matches the names, so a name whose class is
 * absent costs nothing.
 */
@StackFilter({
    "dev.wordstats.numa.lock.JfrLockProbe",
    "dev.wordstats.numa.lock.BothProbes",
    "dev.wordstats.numa.lock.Guard",
    "dev.wordstats.numa.lock.LockGuard",
    "dev.wordstats.numa.lock.SynchronizedGuard",
    "dev.wordstats.numa.lock.ProbedJdkLock",
    "dev.wordstats.numa.lock.QueueLockFields",
    "dev.wordstats.numa.lock.NumaMcsLock",
    "dev.wordstats.numa.lock.NumaHandoffLockFields",
    "dev.wordstats.numa.lock.NumaHandoffLock",
    "dev.wordstats.numa.lock.CombiningLock",
    "dev.wordstats.numa.lock.CombiningLock$Request",
    "dev.wordstats.numa.lock.NumaCombiningLock",
    "dev.wordstats.numa.lock.NumaCombiningLock$GlobalLock",
    "dev.wordstats.numa.lock.NumaMonitorLock",
    "dev.wordstats.numa.lock.NumaMonitorLock$QueuedMode",
    "dev.wordstats.numa.lock.NumaMonitorLock$Monitor",
    "dev.wordstats.numa.lock.NumaMonitorLock$State",
    "dev.wordstats.numa.lock.NumaMonitorLock$StateFields",
    "dev.wordstats.numa.lock.NumaMonitorLock$StateLead",
    "dev.wordstats.numa.lock.NumaMonitorLock$Marks",
    "dev.wordstats.numa.lock.ReadWriteGuard",
    "dev.wordstats.numa.lock.ReadWriteGuard$Side",
    "dev.wordstats.numa.lock.ReentrantReadWriteGuard",
    "dev.wordstats.numa.lock.ReentrantReadWriteGuard$1",
    "dev.wordstats.numa.lock.StampedGuard",
    "dev.wordstats.numa.lock.StampedGuard$1",
    "dev.wordstats.numa.lock.StampedGuard$2",
    "dev.wordstats.numa.lock.NumaRwLock",
    "dev.wordstats.numa.lock.NumaRwLock$ReadSide",
    "dev.wordstats.numa.lock.NumaRwLock$WriteSide"
})
abstract class LockEvent extends Event {}
