/**
 * Locks for virtual threads on NUMA machines, behind one critical-section API. Nothing here depends on
 * the packages that set NUMA up: a lock needs a {@link dev.wordstats.numa.topology.NodeLocator} and a
 * carrier count ({@link dev.wordstats.numa.lock.LockContext}). Start with
 * {@link dev.wordstats.numa.lock.LockType}. The types, by role:
 *
 * <h2>API</h2>
 * <ul>
 *   <li>{@link dev.wordstats.numa.lock.LockType}: every lock type, its facts (a {@code Lock} or a
 *       {@code Guard}, the settings it reads, whether it has modes, how it is observed, whether it is in the
 *       lab and available) and its factory; {@link dev.wordstats.numa.lock.GuardProvider}: the factory of a
 *       type in the lab, found on the class path;</li>
 *   <li>{@link dev.wordstats.numa.lock.Guard}: the critical-section API every type offers ({@code call},
 *       {@code run}, {@code read}, {@code write}); {@link dev.wordstats.numa.lock.LockGuard}: a
 *       {@code java.util.concurrent.locks.Lock} as a guard; {@link dev.wordstats.numa.lock.ReadWriteGuards}:
 *       the reader-writer guards' factory;</li>
 *   <li>{@link dev.wordstats.numa.lock.LockContext} (nodes and carriers) and the settings:
 *       {@link dev.wordstats.numa.lock.LockSettings}, {@link dev.wordstats.numa.lock.QueueLockSettings},
 *       {@link dev.wordstats.numa.lock.MonitorLockSettings}, {@link dev.wordstats.numa.lock.CombiningSettings}.</li>
 * </ul>
 *
 * <h2>Algorithms</h2>
 * <ul>
 *   <li>{@link dev.wordstats.numa.lock.NumaMonitorLock} ({@code NUMA_MONITOR}, the service's default): a
 *       word until two threads meet on it, the JVM's monitor while waiters are served, and
 *       {@code NumaHandoffLock}'s queue for a turn once a caller waited a bound;</li>
 *   <li>{@link dev.wordstats.numa.lock.NumaHandoffLock} ({@code NUMA_HANDOFF}): per-node queues that hand
 *       the lock to a running waiter, in order within a node;</li>
 *   <li>{@link dev.wordstats.numa.lock.NumaMcsLock} ({@code NUMA_MCS}): the thesis algorithm, one MCS queue
 *       per node under a global flag, kept as the baseline;</li>
 *   <li>{@link dev.wordstats.numa.lock.SynchronizedGuard} ({@code SYNCHRONIZED}) and, package-private behind
 *       {@code LockType} and {@code ReadWriteGuards}: {@code NumaRwLock} ({@code NUMA_RW}, per-node reader
 *       indicators, writers in {@code NumaHandoffLock}'s queue; also a
 *       {@code java.util.concurrent.locks.ReadWriteLock}), {@code ReentrantReadWriteGuard}
 *       ({@code FAIR_REENTRANT_RW}, {@code UNFAIR_REENTRANT_RW}), {@code StampedGuard} ({@code STAMPED}),
 *       their base {@code ReadWriteGuard}, and {@code ProbedJdkLock} (a JDK {@code ReentrantLock} that
 *       reports to a probe).</li>
 * </ul>
 *
 * <h2>Internals the algorithms share (package-private)</h2>
 * {@code NumaMcsLock} and {@code NumaHandoffLock} share the per-node MCS queue ({@code NodeQueue},
 * {@code QueueNode}, {@code HandoffNode}), the lock word with its owner fields and reservation
 * ({@code QueueLockFields}), their {@code Condition}s ({@code QueueCondition}, which {@code NumaRwLock}'s
 * write lock uses too) and a carrier's mount state ({@code MountState}). That sharing through
 * package-private fields is why the algorithms and their internals are one package: split, each field
 * the queues share would be public API.
 *
 * <h2>Observation</h2>
 * <ul>
 *   <li>{@link dev.wordstats.numa.lock.LockProbe}: what a lock reports of its own decisions;
 *       {@link dev.wordstats.numa.lock.CountingProbe} counts them into
 *       {@link dev.wordstats.numa.lock.LockStats}; {@link dev.wordstats.numa.lock.LockTimer} times waits and
 *       holds; {@code BothProbes} joins two probes;</li>
 *   <li>{@link dev.wordstats.numa.lock.JfrLockProbe} writes the JDK Flight Recorder events listed in
 *       {@link dev.wordstats.numa.lock.LockEvents}: {@code LockWaitEvent}, {@code LockReservationEvent},
 *       {@code CombiningBatchEvent} and {@code LockModeSwitchEvent}, on their base {@code LockEvent}.</li>
 * </ul>
 *
 * <p>The production classes have their mechanisms fixed; variants with mechanisms switched off, other
 * knobs or counters ({@code NumaHandoffLockLab}, {@code HandoffMechanism}) live in this package too, but
 * in a module of their own, {@code numa-locks-lab}, which the mechanism tests, jcstress and the benchmarks
 * use on the class path and this library's jar does not ship (its README says why the package is shared).
 * So do the algorithms no row of the README's which-lock table picks: {@code CombiningLock} and
 * {@code NumaCombiningLock} ({@code COMBINING}, {@code NUMA_COMBINING}: a holder runs the critical sections
 * its waiters publish), which {@code LockType} builds through their {@code GuardProvider}s when the lab is on
 * the class path.
 *
 * <h2>Memory-mode naming</h2>
 * Shared fields are reached only through private {@code VarHandle}s; an accessor is named for the
 * {@code VarHandle} access mode it uses, as Caffeine names its own ({@code xxxAcquire()},
 * {@code setXxxRelease()}), so a reader never has to guess what a prefix means:
 * <ul>
 *   <li>{@code xVolatile()} / {@code setXVolatile(v)}: {@code getVolatile} / {@code setVolatile};</li>
 *   <li>{@code xOpaque()} / {@code setXOpaque(v)}: {@code getOpaque} / {@code setOpaque} (a single
 *       writer publishing a value that readers only need eventually, e.g. the owner a spinning
 *       waiter checks; no ordering with other fields);</li>
 *   <li>{@code xAcquire()} / {@code setXRelease(v)}: {@code getAcquire} / {@code setRelease};</li>
 *   <li>{@code setXPlain(v)}: a plain store through the handle; plain reads and writes of
 *       owner-only fields use the field itself (only where another edge already orders them, e.g.
 *       an owner reading its own writes);</li>
 *   <li>{@code casX} {@code compareAndSet}, {@code getAndSetX} {@code getAndSet},
 *       {@code getAndAddX} {@code getAndAdd} (all volatile).</li>
 * </ul>
 * (JCTools' {@code lv/sv/so} prefixes are not used: there {@code so} means an ordered, that is
 * release, store, not an opaque one.)
 * {@code CountingProbe}'s counters use opaque access directly: written with {@code setOpaque} by the
 * owner only, read with {@code getOpaque} by {@code stats()}, so a reader never sees a torn
 * {@code long}. Every shared field carries a trailing comment naming who writes it and in which
 * mode.
 */
package dev.wordstats.numa.lock;
