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
 * <h2>Memory-mode naming</h2>
 * Shared fields are reached only through private {@code VarHandle}s; the accessors are named for
 * their access mode, after JCTools. The prefixes in use:
 * <ul>
 *   <li>{@code lvX} load volatile, {@code svX} store volatile;</li>
 *   <li>{@code loX} load opaque, {@code soX} store opaque (a single writer publishing a value that
 *       readers only need eventually, e.g. the owner a spinning waiter checks; no ordering with
 *       other fields);</li>
 *   <li>{@code lpX} plain load (only where another edge already orders it, e.g. an owner reading
 *       its own writes);</li>
 *   <li>{@code casX} compare-and-set, {@code xchgX} get-and-set, {@code addX} get-and-add (all
 *       volatile).</li>
 * </ul>
 * {@code CountingProbe}'s counters use opaque access directly: written with {@code setOpaque} by the
 * owner only, read with {@code getOpaque} by {@code stats()}, so a reader never sees a torn
 * {@code long}. Every shared field carries a trailing comment naming who writes it and in which
 * mode.
 */
package dev.wordstats.numa.lock;
