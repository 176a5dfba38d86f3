package dev.wordstats.numa.lock.probe;

import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import java.util.Objects;

/**
 * Hears a lock's decisions, reported by the lock itself at the points where it makes them: how each
 * acquisition went (at the first attempt, or after waiting), optionally how long it waited and held,
 * and the decisions particular to an algorithm (a reservation taken, a combining batch, a mode switch).
 * A lock built with a probe runs the same code as one built without: the probe is told, it never
 * decides. Give one to {@link LockType#create(LockContext, LockSettings, LockProbe)}.
 *
 * <p><b>Who calls, when, from which thread.</b> Every call is made by the thread that acts, never on
 * behalf of another:
 * <ul>
 *   <li>{@link #acquired} by the thread that has just taken the lock (outermost acquisitions only; a
 *       reentrant one is not reported), while it holds it. For a combining type, "taking the lock" is
 *       running a critical section: the combiner reports each critical section it runs for a waiter,
 *       so the thread that reports is the one that touches the data. These calls are therefore
 *       ordered by the lock itself (each happens-before the next): a probe may keep plain state for
 *       them (the previous acquirer's node, say), as long as one probe instance observes one lock.
 *   <li>{@link #released} when {@link #timed()}, or after an acquisition that waited when {@link
 *       #hearsReleaseAfterWait()}, by the thread whose acquisition it was, after the release (or, for a
 *       combining type, after its call returns), so recording it does not lengthen the critical
 *       section. These calls may overlap each other and the next {@code acquired}.
 *   <li>{@link #wantsWaitNow()} by the thread that is about to wait, at the start of its wait, so a
 *       probe may note the moment there (per thread: the calls of several waiters overlap).
 *   <li>{@link #reserved}, {@link #combined} and {@link #modeSwitched} by the thread that made the
 *       decision, at the decision; they may overlap with other calls.
 * </ul>
 * So an implementation must be thread-safe for every call but {@code acquired}, must not block, must
 * not throw, and should be cheap: {@code acquired} runs inside the critical section.
 *
 * <p><b>What a probe costs a lock.</b> A lock keeps its probe in a final field, null when it has none
 * ({@link #NONE} is turned into null), and reports under a null check. A probe whose
 * {@link #hearsFastPath()} is false is not told of fast acquisitions at all, so a lock's fast path pays
 * only that null check with it too; clocks are read only for a probe that is {@link #timed()} (all
 * acquisitions) or for a waiting acquisition (the slow path, which waits anyway).
 *
 * <p><b>Handoff locality.</b> The lock does not say which node the previous holder ran on: a probe that
 * wants it asks a {@link dev.wordstats.numa.topology.NodeLocator} in {@code acquired} (the holder's
 * node) and compares it with the node it saw at the previous {@code acquired} of the same lock, as
 * {@link CountingProbe} does. That needs every acquisition, fast ones included.
 *
 * <p>Two sinks can hear one lock through {@link #both(LockProbe, LockProbe)}.
 */
public interface LockProbe {

    /** No probe: a lock given this one behaves as if given none and pays nothing. */
    LockProbe NONE = new LockProbe() {
        @Override
        public boolean hearsFastPath() {
            return false;
        }

        @Override
        public void acquired(boolean waited, long waitNanos) {}

        @Override
        public String toString() {
            return "LockProbe.NONE";
        }
    };

    /**
     * Whether the lock reports acquisitions that did not wait ({@link #acquired} with {@code waited}
     * false, and their {@link #released}). Read once, when the lock is built. A probe that returns false
     * hears only acquisitions that waited, and the lock's fast path pays nothing for it but a null check.
     */
    default boolean hearsFastPath() {
        return true;
    }

    /**
     * Whether the lock reads the clock for every reported acquisition, to give the wait of fast ones
     * and to call {@link #released} with wait and hold times. Read once, when the lock is built.
     * Without it, only the wait of an acquisition that waited is measured.
     */
    default boolean timed() {
        return false;
    }

    /**
     * Whether a wait that starts now is wanted: asked by a lock on the waiting thread at the start of
     * every wait (the slow path only: an acquisition that takes the lock at its first attempt never
     * asks), before it reads the clock for it. For a probe that neither {@link #hearsFastPath() hears the
     * fast path} nor is {@link #timed()}, false means the lock reads no clock for this acquisition and
     * does not tell the probe of it; other probes are told of every wait whatever they answer, and so is
     * every probe of {@link LockType#NUMA_MONITOR} and of the combining types, whose algorithms clock
     * their waits anyway (they ask only so that a probe can note the start). True by
     * default. {@link JfrLockProbe} says whether its wait event is enabled, so a waiting acquisition pays
     * no clock reads while no recording wants it, and when it is, begins the event here: this call marks
     * the start of the wait. A wait that gives up (a timed-out or interrupted attempt) is followed by
     * no {@link #acquired} call; the next wait asks again.
     */
    default boolean wantsWaitNow() {
        return true;
    }

    /**
     * Whether the lock calls {@link #released} after the release of each acquisition that waited and was
     * reported, though the probe is not {@link #timed()}: the fast path stays as it is (no clock, no
     * call), and the release of a reported wait costs a clock read and the call. Read when the lock is
     * built, or at each reported wait. False by default; {@link JfrLockProbe} wants it, to write its wait
     * event after the release rather than inside the critical section.
     */
    default boolean hearsReleaseAfterWait() {
        return false;
    }

    /**
     * The calling thread has just taken the lock (its outermost acquisition) and holds it, or (for a
     * combining type) is about to run a critical section, its own or a waiter's.
     *
     * @param waited    false when the lock was taken without waiting (the fast path: the first attempt,
     *                  or a combining lock found free); true when the thread queued, spun, parked or
     *                  had its critical section run by a combiner
     * @param waitNanos when {@code waited}: from the start of the call to now; otherwise the cost of the
     *                  attempt when {@link #timed()}, else 0
     */
    void acquired(boolean waited, long waitNanos);

    /**
     * Only when {@link #timed()}, or for an acquisition that waited when {@link #hearsReleaseAfterWait()}:
     * an acquisition reported to {@link #acquired} has ended (the lock is released, or the combining call
     * has returned), called outside the critical section by the thread whose acquisition it was.
     *
     * @param waited    as given to {@link #acquired}
     * @param waitNanos from the start of the call to the acquisition
     * @param holdNanos from the acquisition to the release (the critical section)
     */
    default void released(boolean waited, long waitNanos, long holdNanos) {}

    /**
     * A node queue's leader of {@link LockType#NUMA_MCS} or {@link LockType#NUMA_HANDOFF} has taken the
     * reservation (waited past its threshold: from now on arrivals do not overtake it), called by that
     * leader.
     *
     * @param node the leader's node
     */
    default void reserved(int node) {}

    /**
     * A combiner of {@link LockType#COMBINING} or {@link LockType#NUMA_COMBINING} ran critical sections of
     * waiters back to back and is letting the combiner role go (freeing the lock or handing it on); called
     * by that combiner, only for a batch of at least one waiter's critical section.
     *
     * @param size  the waiters' critical sections it ran (its own not counted)
     * @param nanos from the start of the first of them to the end of the last
     */
    default void combined(int size, long nanos) {}

    /**
     * An adaptive lock switched mode, called by the thread that switched it.
     *
     * @param queued true for a switch into the queued mode, false for a switch into the lean mode
     */
    default void modeSwitched(boolean queued) {}

    /**
     * A probe that tells both {@code first} and {@code second} everything, in that order. It hears the
     * fast path, and is timed, if either is; each is still told only what it asked for. {@link #NONE}
     * is left out: {@code both(p, NONE)} is {@code p}.
     */
    static LockProbe both(LockProbe first, LockProbe second) {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(second, "second");
        if (first == NONE) {
            return second;
        }
        if (second == NONE) {
            return first;
        }
        return new BothProbes(first, second);
    }

    /** {@code probe}, or null for {@link #NONE}: what a lock keeps in its final field. */
    static LockProbe orNull(LockProbe probe) {
        return probe == NONE ? null : Objects.requireNonNull(probe, "probe");
    }

    /** {@code probe} if it {@link #hearsFastPath() hears the fast path}, else null: a lock's fast-path field. */
    static LockProbe fastPathOf(LockProbe probe) {
        LockProbe p = orNull(probe);
        return p != null && p.hearsFastPath() ? p : null;
    }
}
