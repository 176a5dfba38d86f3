package dev.wordstats.numa.lock.probe;

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
    "dev.wordstats.numa.lock.probe.JfrLockProbe",
    "dev.wordstats.numa.lock.probe.BothProbes",
    "dev.wordstats.numa.lock.Guard",
    "dev.wordstats.numa.lock.LockGuard",
    "dev.wordstats.numa.lock.jdk.SynchronizedGuard",
    "dev.wordstats.numa.lock.jdk.ProbedJdkLock",
    "dev.wordstats.numa.lock.queue.QueueLockFields",
    "dev.wordstats.numa.lock.queue.NumaMcsLock",
    "dev.wordstats.numa.lock.queue.NumaHandoffLockFields",
    "dev.wordstats.numa.lock.queue.NumaHandoffLock",
    "dev.wordstats.numa.lock.combining.CombiningLock",
    "dev.wordstats.numa.lock.combining.CombiningLock$Request",
    "dev.wordstats.numa.lock.combining.NumaCombiningLock",
    "dev.wordstats.numa.lock.combining.NumaCombiningLock$GlobalLock",
    "dev.wordstats.numa.lock.queue.NumaMonitorLock",
    "dev.wordstats.numa.lock.queue.NumaMonitorLock$QueuedMode",
    "dev.wordstats.numa.lock.queue.NumaMonitorLock$Monitor",
    "dev.wordstats.numa.lock.queue.NumaMonitorLock$State",
    "dev.wordstats.numa.lock.queue.NumaMonitorLock$StateFields",
    "dev.wordstats.numa.lock.queue.NumaMonitorLock$StateLead",
    "dev.wordstats.numa.lock.queue.NumaMonitorLock$Marks",
    "dev.wordstats.numa.lock.queue.ReadWriteGuard",
    "dev.wordstats.numa.lock.queue.ReadWriteGuard$Side",
    "dev.wordstats.numa.lock.queue.ReentrantReadWriteGuard",
    "dev.wordstats.numa.lock.queue.ReentrantReadWriteGuard$1",
    "dev.wordstats.numa.lock.queue.StampedGuard",
    "dev.wordstats.numa.lock.queue.StampedGuard$1",
    "dev.wordstats.numa.lock.queue.StampedGuard$2",
    "dev.wordstats.numa.lock.queue.NumaRwLock",
    "dev.wordstats.numa.lock.queue.NumaRwLock$ReadSide",
    "dev.wordstats.numa.lock.queue.NumaRwLock$WriteSide"
})
abstract class LockEvent extends Event {}
