/**
 * The project's lock algorithms and the internals they share, with the reader-writer guards. Users build
 * them through {@link dev.wordstats.numa.lock.LockType} (and, with a probe for read sections,
 * {@link dev.wordstats.numa.lock.ReadWriteGuards}); the public classes can also be named and built
 * directly, as the JDK's locks can. This package depends on the API ({@code dev.wordstats.numa.lock}),
 * {@code probe} and {@code topology}, not on {@code jdk}.
 *
 * <h2>Algorithms</h2>
 * <ul>
 *   <li>{@link dev.wordstats.numa.lock.queue.NumaMonitorLock} ({@code NUMA_MONITOR}, the service's
 *       default): a word until two threads meet on it, the JVM's monitor while waiters are served, and
 *       {@code NumaHandoffLock}'s queue for a turn once a caller waited a bound;</li>
 *   <li>{@link dev.wordstats.numa.lock.queue.NumaHandoffLock} ({@code NUMA_HANDOFF}): per-node queues that
 *       hand the lock to a running waiter, in order within a node;</li>
 *   <li>{@link dev.wordstats.numa.lock.queue.NumaMcsLock} ({@code NUMA_MCS}): the thesis algorithm, one MCS
 *       queue per node under a global flag, kept as the baseline;</li>
 *   <li>{@link dev.wordstats.numa.lock.queue.NumaRwLock} ({@code NUMA_RW}): per-node reader indicators,
 *       writers in {@code NumaHandoffLock}'s queue; also a
 *       {@code java.util.concurrent.locks.ReadWriteLock}.</li>
 * </ul>
 *
 * <h2>Reader-writer guards</h2>
 * <ul>
 *   <li>{@link dev.wordstats.numa.lock.queue.ReadWriteGuard}: the base of the reader-writer guards
 *       (reentrancy, no upgrade, the reports to a read and a write probe) and of {@code NumaRwLock}'s
 *       {@code Lock} faces, {@code ReadWriteGuard.ReadLock} and {@code ReadWriteGuard.WriteLock}; public as
 *       the type of those faces, subclassed in this package only (its constructor and its {@code Side}
 *       are package-private);</li>
 *   <li>{@link dev.wordstats.numa.lock.queue.ReentrantReadWriteGuard} ({@code FAIR_REENTRANT_RW},
 *       {@code UNFAIR_REENTRANT_RW}): the JDK's {@code ReentrantReadWriteLock};</li>
 *   <li>{@link dev.wordstats.numa.lock.queue.StampedGuard} ({@code STAMPED}): the JDK's {@code StampedLock},
 *       without optimistic reads.</li>
 * </ul>
 * The two guards of the JDK's locks sit here rather than with the JDK's exclusive locks
 * ({@link dev.wordstats.numa.lock.jdk}) because they extend {@code ReadWriteGuard} through its
 * package-private {@code Side}, and {@code ReadWriteGuard}'s write lock builds its conditions from
 * {@code QueueCondition}: apart, {@code Side} and its methods, or {@code QueueCondition}, would be public
 * API.
 *
 * <h2>Internals the algorithms share (package-private)</h2>
 * {@code NumaMcsLock} and {@code NumaHandoffLock} share the per-node MCS queue, the lock word with its owner
 * fields and reservation, their {@code Condition}s and a carrier's mount state:
 * <ul>
 *   <li>{@code NodeQueue}: one node's MCS queue, its tail, leader and run of in-node handoffs;</li>
 *   <li>{@code QueueNode}: the node of one slow-path acquisition in a node queue;</li>
 *   <li>{@code HandoffNode}: {@code NumaHandoffLock}'s queue node, whose leader says when it is due and where
 *       it runs;</li>
 *   <li>{@code QueueLockFields}: the lock word, the owner fields and the reservation both queue locks
 *       share;</li>
 *   <li>{@code QueueCondition}: the {@code Condition} of both queue locks and of {@code NumaRwLock}'s write
 *       lock;</li>
 *   <li>{@code MountState}: whether a thread is running now (a virtual thread mounted and running);</li>
 *   <li>the padding class chains declared beside the classes they pad ({@code QueueLockL0Pad},
 *       {@code NumaMcsLockL1Pad}, {@code NumaHandoffLockFields}, {@code NumaHandoffLockL1Pad},
 *       {@code NodeQueueL0Pad}, {@code NodeQueueFields}, {@code NodeQueueL1Pad}, and {@code NumaRwLock}'s
 *       {@code NumaRwIndicator} and {@code NumaRwDoor} with theirs).</li>
 * </ul>
 * That sharing through package-private fields is why the algorithms and their internals are one package:
 * split, each field the queues share would be public API.
 *
 * <p>The production classes have their mechanisms fixed; variants with mechanisms switched off, other knobs
 * or counters ({@code NumaHandoffLockLab}, and {@code HandoffMechanism}, the mechanisms it can switch off)
 * live in this package too, but in a module of their own, {@code numa-locks-lab}, which the mechanism tests,
 * jcstress and the benchmarks use on the class path and this library's jar does not ship: they override
 * {@code NumaHandoffLock}'s package-private variation points and read its node queues (the lab's README says
 * why the package is shared).
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
 * The combining locks in the lab name their accessors the same way. {@code CountingProbe}'s counters (in
 * {@code probe}) use opaque access directly: written with {@code setOpaque} by the owner only, read with
 * {@code getOpaque} by {@code stats()}, so a reader never sees a torn {@code long}; so does
 * {@code SynchronizedGuard}'s busy flag (in {@code jdk}). Every shared field carries a trailing comment
 * naming who writes it and in which mode.
 */
package dev.wordstats.numa.lock.queue;
