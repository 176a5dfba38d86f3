package dev.wordstats.numa.lock;

/**
 * A {@link Guard} that counts its critical sections: how each caller got in (fast or slow path) and
 * whether the guard moved between NUMA nodes, and optionally reports wait and hold times to a
 * {@link LockTimer}. Every {@link LockType} offers one through
 * {@link LockType#createObservedGuard(dev.wordstats.numa.topology.NodeLocator, LockSettings, LockTimer)}.
 *
 * <p>What is counted, for every type:
 * <ul>
 *   <li>one acquisition per outermost {@link #call} or {@link #run}: a reentrant call from inside a
 *       critical section of the same guard is not another acquisition, so {@code fast + slow} equals
 *       the outermost calls exactly, whether their critical sections returned or threw;
 *   <li>one handoff (same or cross node) per acquisition after the first, comparing the node of the
 *       thread that ran the critical section with that of the one that ran the previous one;
 *   <li>with a timer: one wait and one hold record per acquisition, recorded on the caller's thread
 *       after {@code call} returns, outside the critical section.
 * </ul>
 * What the fast path means depends on the kind of type: for a type that {@link LockType#isLock() is a
 * Lock} it is an acquisition at the first attempt (as {@link ObservedLock} counts it); for any other
 * type it is a call that found the guard idle when it arrived (see {@link ObservedSectionGuard}).
 *
 * <p>An unobserved guard (from {@link LockType#createGuard}) pays nothing for any of this.
 */
public interface ObservedGuard extends Guard {

    /**
     * What this guard has counted so far. Any thread may ask at any time; each counter is read
     * atomically but the four together are not one instant.
     */
    LockStats stats();

    /**
     * Acquisitions by the node of the thread that ran the critical section ({@code [i]} for node
     * {@code i} of the locator), read like {@link #stats()}.
     */
    long[] acquisitionsByNode();
}
