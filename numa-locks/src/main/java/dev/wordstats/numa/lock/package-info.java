/**
 * Locks for virtual threads on NUMA machines: {@link dev.wordstats.numa.lock.NumaMcsLock} (the
 * thesis algorithm), {@link dev.wordstats.numa.lock.NumaHandoffLock} (its next version), the
 * combining locks {@link dev.wordstats.numa.lock.CombiningLock} and
 * {@link dev.wordstats.numa.lock.NumaCombiningLock} (a holder runs the critical sections its waiters
 * publish), {@link dev.wordstats.numa.lock.SynchronizedGuard}, the {@link dev.wordstats.numa.lock.LockType}
 * registry, the critical-section API every type offers ({@link dev.wordstats.numa.lock.Guard}), and the
 * probe through which each lock reports its own decisions ({@link dev.wordstats.numa.lock.LockProbe};
 * {@link dev.wordstats.numa.lock.CountingProbe} counts them). Nothing here depends on the packages that
 * set NUMA up: a lock needs a {@link dev.wordstats.numa.topology.NodeLocator} and a carrier count
 * ({@link dev.wordstats.numa.lock.LockContext}).
 *
 * <p>{@code NumaMcsLock} and {@code NumaHandoffLock} share the per-node MCS queue ({@code NodeQueue},
 * {@code QueueNode}) and the lock word with its owner fields and reservation ({@code QueueLockFields}).
 * The production classes have their mechanisms fixed; variants with mechanisms switched off, other
 * knobs or counters for tests ({@code NumaHandoffLockLab}, {@code HandoffMechanism}) live in this
 * package too, but in a module of their own, {@code numa-locks-lab}, which the mechanism tests,
 * jcstress and the benchmarks use on the class path and this library's jar does not ship (its
 * README says why the package is shared).
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
