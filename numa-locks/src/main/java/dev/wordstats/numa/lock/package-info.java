/**
 * The lock API: the lock types with their one factory, the critical-section API every type offers, and
 * what a lock is built with (the machine's context and each family's settings). Nothing here depends on
 * the packages that set NUMA up: a lock needs a {@link dev.wordstats.numa.topology.NodeLocator} and a
 * carrier count ({@link dev.wordstats.numa.lock.LockContext}). Start with
 * {@link dev.wordstats.numa.lock.LockType}.
 *
 * <h2>The lock packages</h2>
 * <ul>
 *   <li>{@code dev.wordstats.numa.lock}, this one: the API, below;</li>
 *   <li>{@link dev.wordstats.numa.lock.probe}: observation, the probe a lock reports its decisions to, the
 *       sinks that count them or write them as JDK Flight Recorder events, and the events;</li>
 *   <li>{@link dev.wordstats.numa.lock.queue}: the project's algorithms and the internals they share, with
 *       the reader-writer guards, which share a base with {@code NUMA_RW}; its package-info holds the
 *       memory-mode naming of the lock code (accessor names, {@code VarHandle}s);</li>
 *   <li>{@link dev.wordstats.numa.lock.jdk}: the JDK's exclusive locks as guards.</li>
 * </ul>
 * The API names the probe in its signatures, so it depends on {@code probe}; of its types only the two
 * factories, {@link dev.wordstats.numa.lock.LockType} and {@link dev.wordstats.numa.lock.ReadWriteGuards},
 * depend on the algorithm packages, which depend on the API in turn (the cycle between a factory and its
 * implementations that {@code java.util.concurrent} and its {@code locks} package have too). {@code probe}
 * depends on no algorithm package, and {@code queue} and {@code jdk} not on each other;
 * {@code LockPackageDependenciesTest} checks these rules on the sources.
 *
 * <h2>Types</h2>
 * <ul>
 *   <li>{@link dev.wordstats.numa.lock.LockType}: every lock type, its facts (a {@code Lock} or a
 *       {@code Guard}, the settings it reads, whether it has modes, how it is observed, whether it is in the
 *       lab and available) and its factory;</li>
 *   <li>{@link dev.wordstats.numa.lock.GuardProvider}: the factory of a type in the lab, found on the class
 *       path;</li>
 *   <li>{@link dev.wordstats.numa.lock.Guard}: the critical-section API every type offers ({@code call},
 *       {@code run}, {@code read}, {@code write});</li>
 *   <li>{@link dev.wordstats.numa.lock.LockGuard}: a {@code java.util.concurrent.locks.Lock} as a
 *       guard;</li>
 *   <li>{@link dev.wordstats.numa.lock.ReadWriteGuards}: the reader-writer guards' factory, with a probe of
 *       their own for read sections;</li>
 *   <li>{@link dev.wordstats.numa.lock.LockContext}: the nodes and the carrier count a lock needs;</li>
 *   <li>{@link dev.wordstats.numa.lock.LockSettings}: the settings of every family, one record each;</li>
 *   <li>{@link dev.wordstats.numa.lock.QueueLockSettings}: the queue locks' reservation threshold;</li>
 *   <li>{@link dev.wordstats.numa.lock.MonitorLockSettings}: {@code NUMA_MONITOR}'s bound on a wait and
 *       how it adapts;</li>
 *   <li>{@link dev.wordstats.numa.lock.CombiningSettings}: the combining types' batch bounds (the types
 *       are in the lab, their settings here, so one configuration binds with or without them).</li>
 * </ul>
 *
 * <p>The production classes have their mechanisms fixed; variants with mechanisms switched off, other knobs
 * or counters, and the algorithms no row of the README's which-lock table picks (the combining locks,
 * {@code COMBINING} and {@code NUMA_COMBINING}, which {@code LockType} builds through their
 * {@code GuardProvider}s when the lab is on the class path) live in a module of their own,
 * {@code numa-locks-lab}, which this library's jar does not ship.
 */
package dev.wordstats.numa.lock;
