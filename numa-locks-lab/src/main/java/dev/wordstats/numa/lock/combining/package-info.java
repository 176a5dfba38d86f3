/**
 * The combining locks, in the lab: the lock types no row of the root README's which-lock table picks,
 * {@code COMBINING} and {@code NUMA_COMBINING}, whose holder runs the critical sections its waiters
 * publish (delegation). Their {@code LockType} constants and {@code CombiningSettings} are numa-locks'
 * API; {@code LockType} builds them through their {@code GuardProvider}s, which
 * {@code META-INF/services/dev.wordstats.numa.lock.GuardProvider} names. They use only the library's
 * public API ({@code Guard}, {@code LockProbe}, {@code CombiningSettings}), so they have a package of their
 * own, which no jar shares; their class names are the ones {@code LockEvent}'s stack filter lists.
 *
 * <ul>
 *   <li>{@link dev.wordstats.numa.lock.combining.CombiningLock} ({@code COMBINING}): CC-Synch, the holder
 *       runs a bounded FIFO batch of published critical sections;</li>
 *   <li>{@link dev.wordstats.numa.lock.combining.NumaCombiningLock} ({@code NUMA_COMBINING}): H-Synch, one
 *       {@code CombiningLock} queue per node under a global lock;</li>
 *   <li>{@link dev.wordstats.numa.lock.combining.CombiningLockProvider}: {@code COMBINING}'s
 *       {@code GuardProvider};</li>
 *   <li>{@link dev.wordstats.numa.lock.combining.NumaCombiningLockProvider}: {@code NUMA_COMBINING}'s
 *       {@code GuardProvider}.</li>
 * </ul>
 */
package dev.wordstats.numa.lock.combining;
