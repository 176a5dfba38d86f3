/**
 * The JDK's exclusive locks as guards, for comparison with the project's: {@code synchronized}, and a
 * {@code ReentrantLock} that reports to a probe. {@link dev.wordstats.numa.lock.LockType} builds them
 * ({@code SYNCHRONIZED}, {@code FAIR_REENTRANT}, {@code UNFAIR_REENTRANT}); without a probe the two
 * {@code ReentrantLock} types are the JDK's lock itself. The JDK's reader-writer locks are guarded in
 * {@link dev.wordstats.numa.lock.queue}, beside the base they share with {@code NUMA_RW} (that package's
 * package-info says why). This package depends on the API and {@code probe} only.
 *
 * <ul>
 *   <li>{@link dev.wordstats.numa.lock.jdk.SynchronizedGuard} ({@code SYNCHRONIZED}): {@code synchronized}
 *       on a private monitor (no carrier pinning since JDK 24, JEP 491); with a probe, a call waited when a
 *       critical section was running as it arrived;</li>
 *   <li>{@link dev.wordstats.numa.lock.jdk.ProbedJdkLock}: a JDK {@code Lock} ({@code FAIR_REENTRANT},
 *       {@code UNFAIR_REENTRANT}) that reports to a probe through a thin wrapper, its first attempt the
 *       lock's own.</li>
 * </ul>
 */
package dev.wordstats.numa.lock.jdk;
