/**
 * Observation: what a lock reports of its own decisions, and the sinks that hear it. A lock is built with
 * a {@link dev.wordstats.numa.lock.probe.LockProbe} and calls it at the points where it decides (an
 * acquisition at the first attempt or after waiting, a reservation, a combining batch, a mode switch); a
 * lock without one pays a null check. This package depends on the API ({@code dev.wordstats.numa.lock}:
 * an event names its lock's {@code LockType}) and on no algorithm package; the algorithms depend on it.
 *
 * <ul>
 *   <li>{@link dev.wordstats.numa.lock.probe.LockProbe}: what a lock reports, who calls it, when and from
 *       which thread;</li>
 *   <li>{@code BothProbes} (package-private): {@code LockProbe.both}, two probes hearing one lock;</li>
 *   <li>{@link dev.wordstats.numa.lock.probe.CountingProbe}: counts one lock's acquisitions by path, node
 *       and handoff locality, its reservations, batches and mode switches;</li>
 *   <li>{@link dev.wordstats.numa.lock.probe.LockStats}: a snapshot of what a {@code CountingProbe}
 *       counted;</li>
 *   <li>{@link dev.wordstats.numa.lock.probe.LockTimer}: receives the wait and hold times a
 *       {@code CountingProbe} passes on;</li>
 *   <li>{@link dev.wordstats.numa.lock.probe.JfrLockProbe}: writes what one lock reports as JDK Flight
 *       Recorder events, the probe a lock gets by default;</li>
 *   <li>{@link dev.wordstats.numa.lock.probe.LockEvents}: the events' names, their category and the settings
 *       file that turns them on;</li>
 *   <li>{@code LockEvent} (package-private): the events' base, whose stack filter drops the library's own
 *       frames (it names the locks' classes by their full names, strings rather than imports), so a stack
 *       trace starts at the caller of the lock;</li>
 *   <li>{@code LockWaitEvent} (package-private): an acquisition that waited;</li>
 *   <li>{@code LockReservationEvent} (package-private): a queue leader took the reservation;</li>
 *   <li>{@code CombiningBatchEvent} (package-private): a combiner ran a batch of its waiters' critical
 *       sections;</li>
 *   <li>{@code LockModeSwitchEvent} (package-private): an adaptive lock switched mode.</li>
 * </ul>
 *
 * <p>{@code CountingProbe}'s counters follow the memory-mode naming of the lock code
 * ({@link dev.wordstats.numa.lock.queue}'s package-info): they use opaque access directly, written with
 * {@code setOpaque} by the owner only and read with {@code getOpaque} by {@code stats()}, so a reader never
 * sees a torn {@code long}.
 */
package dev.wordstats.numa.lock.probe;
