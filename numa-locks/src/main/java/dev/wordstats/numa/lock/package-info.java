/**
 * Locks for virtual threads on NUMA machines: {@link dev.wordstats.numa.lock.NumaMcsLock}, the
 * combining locks {@link dev.wordstats.numa.lock.CombiningLock} and
 * {@link dev.wordstats.numa.lock.NumaCombiningLock} (a holder runs the critical sections its waiters
 * publish), {@link dev.wordstats.numa.lock.SynchronizedGuard}, the {@link dev.wordstats.numa.lock.LockType}
 * choice, the critical-section API every type offers ({@link dev.wordstats.numa.lock.Guard}), and the
 * observed variants that count how a lock is acquired ({@link dev.wordstats.numa.lock.ObservedLock} for
 * the {@code Lock} types, {@link dev.wordstats.numa.lock.ObservedGuard} for every type).
 *
 * <h2>Memory-mode naming</h2>
 * Shared fields are reached only through private {@code VarHandle}s and accessors named for their
 * access mode, after JCTools:
 * <ul>
 *   <li>{@code lvX} load volatile, {@code svX} store volatile;</li>
 *   <li>{@code laX} load acquire, {@code srX} store release;</li>
 *   <li>{@code lpX}/{@code spX} plain load/store (only where another edge already orders them);</li>
 *   <li>{@code casX} compare-and-set (volatile), {@code xchgX} get-and-set (volatile).</li>
 * </ul>
 * Every shared field carries a trailing comment naming who writes it and in which mode.
 */
package dev.wordstats.numa.lock;
