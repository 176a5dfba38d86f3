/**
 * NUMA-aware locks for Java virtual threads, and what they need to know about the machine: the
 * topology, the node a thread runs on, carrier pinning and node-affine virtual-thread schedulers.
 * Start with {@link dev.wordstats.numa.lock.LockType}; the locks' JDK Flight Recorder events are listed in
 * {@link dev.wordstats.numa.lock.probe.LockEvents}.
 *
 * <p>JVM flags on the module path (on the class path, name {@code ALL-UNNAMED} instead of the
 * module); without them the library still works, more slowly (the project README, "JVM flags"):
 * <pre>
 * --add-exports=java.base/jdk.internal.misc=dev.wordstats.numa   per-carrier node cache (CarrierThreadLocal)
 * --add-opens=java.base/java.lang=dev.wordstats.numa             Thread.currentCarrierThread, VirtualThread state,
 *                                                                the per-node virtual-thread schedulers
 * --enable-native-access=com.sun.jna                             JNA's native calls without a warning
 * </pre>
 *
 * <p>The lock packages: {@code dev.wordstats.numa.lock} is the API (the lock types and their factory,
 * {@code Guard}, the context and the settings) and {@code dev.wordstats.numa.lock.probe} the observation (the
 * probe a lock reports to, its counting and JFR sinks, the events); both are what an application names.
 * {@code dev.wordstats.numa.lock.queue} (the project's algorithms and the reader-writer guards) and
 * {@code dev.wordstats.numa.lock.jdk} (the JDK's exclusive locks as guards) hold the implementations, whose
 * public classes are exported too, for a caller that names or builds one directly ({@code NumaMcsLock} as a
 * {@code Lock}, say); their internals are package-private.
 *
 * <p>The package {@code dev.wordstats.numa.os} (the JNA binding of libc) is internal and not exported.
 */
@SuppressWarnings("requires-automatic") // JNA 5.19 ships an Automatic-Module-Name (com.sun.jna), no descriptor
module dev.wordstats.numa {
    requires com.sun.jna;
    requires jdk.jfr;

    exports dev.wordstats.numa.carrier;
    exports dev.wordstats.numa.counts;
    exports dev.wordstats.numa.lock;
    exports dev.wordstats.numa.lock.jdk;
    exports dev.wordstats.numa.lock.probe;
    exports dev.wordstats.numa.lock.queue;
    exports dev.wordstats.numa.scheduler;
    exports dev.wordstats.numa.setup;
    exports dev.wordstats.numa.topology;

    // The factories of the lock types in the lab (numa-locks-lab, class path only; see LockType).
    uses dev.wordstats.numa.lock.GuardProvider;
}
