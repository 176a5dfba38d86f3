package dev.wordstats.numa.lock;

import dev.wordstats.numa.topology.NodeLocator;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * A reentrant mutual-exclusion lock for virtual threads that adapts to how hot it is: while it is
 * not saturated it is a lean spin-then-park lock (one compare-and-set to take it, a bounded spin
 * while its owner runs on another carrier, then a park), and while it stays saturated it routes
 * every arrival through a {@link NumaHandoffLock}, whose per-node queues hand the lock to a running
 * successor, bound how long anyone waits and keep the lock on one NUMA node for a turn. It goes
 * back to lean when the queue stays empty, and tries lean again after a probation that doubles each
 * time the lock turns saturated again at once ({@link LockType#NUMA_ADAPTIVE}).
 *
 * <p>A drop-in for a non-fair {@link java.util.concurrent.locks.ReentrantLock}: {@link #lock},
 * {@link #lockInterruptibly}, {@link #tryLock()}, {@link #tryLock(long, TimeUnit)} and {@link
 * #unlock} keep the {@link Lock} contract; the lock is reentrant and {@link #unlock} by a thread
 * that does not hold it throws {@link IllegalMonitorStateException}. It has no {@link Condition}s.
 * Not fair while lean (an arriving thread may take a free lock ahead of a parked one), but a
 * waiter that lost the lock to arriving threads more than {@link #STARVING_LOSSES} times, over at
 * least {@link #STARVING_NANOS}, turns the lock queued, where waits are bounded.
 */
public final class NumaAdaptiveLock implements Lock {

    /*
     * Overview
     *
     * Why two modes. Most locks of a striped store are met uncontended, or held for tens of
     * nanoseconds by an owner that is running on the other carrier: there a test-and-set word with
     * a short spin while the owner runs wins (HotSpot's monitors: CAS, then adaptive spinning while
     * the owner runs, then park), and any queue, time slice or leader only costs. A saturated lock
     * (every release finds a waiter) is the opposite case: a spinning pair of carriers would pass
     * the lock between two threads while the others never get a carrier, and parked waiters pay an
     * unpark and a mount while the lock sits idle; there NumaHandoffLock's queue, wake-ahead
     * handoff, time slices and reservation win. The mode is chosen per lock instance from what its
     * own owners saw (GLK, "Locking made easy", Antic et al., Middleware 2016: per-lock adaptation
     * between spin, queue and blocking; Go's sync.Mutex normal and starvation modes; Fissile locks,
     * Dice & Kogan 2020: a test-and-set fast path in front of a queue lock; HQ-lock: per-node queues
     * switched on only past a contention threshold).
     *
     * Parts
     *  - the word: word.state is FREE (0), HELD (1) or QUEUED (2). Lean: an owner took FREE -> HELD
     *    by CAS (the fast path, a spinner, or a parked waiter of the word's parking queue). Queued:
     *    the word stays QUEUED while queued; the owner is whoever holds the queue lock (queue, a
     *    NumaHandoffLock made on the first switch and kept), which also counts its reentrant holds.
     *    A saturated lock's owners then only read the word, so its line stays shared in every cache
     *    and a handoff moves only the queue lock's lines.
     *  - owner, holds: lean only; set by the owner after it took the word (so spinners can ask
     *    whether it runs), cleared before it releases; holds counts reentrant holds. Which mode a
     *    thread holds the lock in is told by the word: only the owner can change it.
     *  - layout: the word is a class of its own, not an AQS (whose fields would come first, next to
     *    whatever object the heap put before it): 60 bytes of lead (WordLead), then the state, the
     *    owner, holds, the window's counters and the parked count in one run of 32 bytes
     *    (WordFields), so a lean handoff moves one cache line or two adjacent ones, then the rest of
     *    the statistics and the final fields, at least 64 bytes (WordColdFields): no field of another
     *    object shares a line with the run, wherever the heap puts the word.
     *    // checked by NumaAdaptiveLockTest.aLeanHandoffTouchesOneRunOfFieldsThatNoOtherObjectShares
     *    Measured (JOURNAL 2026-11-26 08:00): 6 hot words, 64 stripes, a section per word, the
     *    word as an AQS with the run right after the header and padding only after it: 0.88 of
     *    synchronized; as here: 0.94.
     *  - lean spin: a lean arrival that finds the word HELD spins (reading, not writing the word)
     *    while the owner is mounted and running (MountState), at most SPIN_NANOS; a platform-thread
     *    owner counts as running. Then it queues and parks in the word's parking queue (Parking, a
     *    JDK AbstractQueuedSynchronizer whose tryAcquire and tryRelease are the word's: count itself
     *    in parked, publish the node, re-check the word, park; the release's volatile write of the
     *    word's state, then its read of parked and, when that is not 0, signalNext() are the other
     *    half of that handshake: a lean release with nobody parked does not read the parking queue).
     *    // checked by NumaAdaptiveLockTests.LeanReleaseRacesPark (jcstress) and NumaAdaptiveLockNoHangTest
     *  - statistics, owner-only plain fields: in lean mode each owner adds itself to a window of
     *    WINDOW acquisitions and, if it had to spin or park, to a count of contended ones, if it
     *    parked also to a count of parked ones; the first owner of every eighth window reads the
     *    clock at its acquisition and its release (the hold sample: two clock reads per 8 x WINDOW
     *    acquisitions; none yet counts as a long hold). In queued mode each outermost release adds
     *    one to a count in QueuedMode, beside the queue lock and off the word's line, and a release
     *    that finds no leader waiting in the queue lock starts or continues a quiet time (the clock is
     *    read only then); the probation's last WINDOW acquisitions are measured, each from its
     *    acquisition to its release (two clock reads each, once a probation).
     *    Not "the queue lock was free on arrival": the queue lock lets an owner retake it while its
     *    time slice lasts, and those retakes find it free while dozens of threads wait.
     *
     * Probe (optional; none: each report is skipped by a null check): the lock reports its own
     * acquisitions in both modes (the queue lock is built without a probe, so nothing is told twice):
     * waited false for the first CAS on a free word and for tryLock, true for a lean acquisition that
     * spun or parked, and for a queued one that parked in lean mode first or found the queue lock held
     * on arrival; modeSwitched
     * by the releasing owner at the switch, before the release that publishes it; timing after the
     * release, from values read before it.
     *
     * Mode switches (only at a release, by the releasing owner, after its critical section ended)
     *  - lean -> queued, at the end of a window: when SATURATED_TO_QUEUE of its WINDOW acquisitions
     *    were contended (spun or parked) and its sampled hold was shorter than SHORT_HOLD_NANOS (a
     *    lock passed between the carriers at every acquisition, whose cache-line moves cost as much as
     *    its section: the queue lock's slice keeps it on one carrier for a turn; with longer sections
     *    the lean pipeline wins, one carrier inside while the other works outside; on a machine of
     *    more than one node whatever the hold, since there a lean handoff between carriers of
     *    different nodes moves the lock and its section's data across the interconnect, which the
     *    queue lock's in-node passing avoids: JOURNAL 2026-11-26 11:00), or whatever the hold when
     *    its spinning acquisitions spun on average LONG_SPIN_PERCENT of the sampled hold or more (no
     *    work beside the section: one carrier spins through each hold while the other holds, the rest
     *    of the threads wait unseen in the run queues; with work outside, the spins of the same
     *    saturated windows are a few ns: the pipeline, which stays lean), or, with as few as a
     *    quarter of them contended, when it and the sampled window before it were busy: the sampled
     *    hold, taken as every acquisition's, filled SATURATED_BUSY_PERCENT of the window's span,
     *    and its spinners spun BUSY_SPIN_PERCENT of the hold (a hot lock on 2 carriers, which its
     *    releasing thread takes again about every other time while the parked waiters lose), or when
     *    PARKED_TO_QUEUE of them parked (the waiters' owner unmounts while it holds the lock, or holds
     *    it past the spin: each lean handoff then pays an unpark and a mount); a park after a spin
     *    that ran out its bound while the owner ran counts only when the sampled hold is as long as
     *    the spin bound: with shorter holds the owner's carrier was stopped (a safepoint, or the host
     *    took its CPU), every arrival of the stall parks, and the queue lock serves a stall no better
     *    (4 stripes of Zipf counting turned queued 20-47 times a fork for stalls, JOURNAL 2026-11-26
     *    20:20 and 20:45);
     *    or at once, when a parked waiter has lost more than STARVING_LOSSES attempts to other threads
     *    (it counts them in the word's tryAcquire: one at arrival, one before each park, one after
     *    each wake-up) over at least STARVING_NANOS since its first, and says so in the word (Go's
     *    starvation flag). Losses, because a waiter woken only to find the word taken again is
     *    what barging costs, while time alone would also count its wait for a carrier, which says
     *    nothing of the lock (with CPU-bound threads on 2 carriers a woken thread may wait
     *    milliseconds for one); and time too (Go's 1 ms), because a woken waiter that loses some
     *    hundred times within a millisecond to threads that work outside the lock is barging doing
     *    its job: turning every thread queued for it cost a quarter of the throughput of one stripe
     *    counted a line at a time (JOURNAL 2026-11-26). A switch for a starving waiter alone is a
     *    short turn, min(probation, WINDOW) queued releases, enough for the queue to serve it,
     *    then lean again (Go's starvation mode ends as soon as its waiter is served), unless the
     *    turn's last releases find the lock busy as a probation's end does (below): then the turn
     *    becomes a probation (a hot lock on 2 carriers starves its parked waiters every few
     *    milliseconds, and its short turns each paid the move of every parked waiter to the queue
     *    lock, JOURNAL 2026-11-26 22:30); only a hot window (saturated or parked) starts a
     *    probation, or a waiter that starves again within STARVING_AGAIN lean acquisitions of a
     *    starving turn.
     *    // checked by NumaAdaptiveLockTest.aStarvingWaiterGetsAShortTurnAndAHotWindowAProbation
     *    Not "waiters parked at a release": a stripe of a striped store has a few now and then (a
     *    safepoint or the host stops a carrier whose thread holds it, and the spinners time out),
     *    and a stripe turned queued for that stayed queued.
     *    Nor "waiters parked at several window ends in a row", which the same stalls meet: 4 stripes
     *    of Zipf counting turned queued about 12 times a round for it, and queued they count at a
     *    third of the speed. Nor "the lock held half of a sampled window's time" (the sampled hold
     *    times the window's acquisitions): one hold of a stripe varies from 50 ns to a microsecond
     *    (cache misses in its map), so one sample in five said "busy" and 4 stripes switched about
     *    90 times a round; the busy rule above asks for three-quarters, twice in a row eight windows
     *    apart, with a quarter contended and the waiters spinning.
     *    The owner makes the queue lock if there is none yet (published by CAS before the word says
     *    QUEUED), releases the word as QUEUED instead of FREE, and wakes the first parked waiter of
     *    the word's queue, which finds QUEUED, leaves the word's queue, wakes the next one, and goes
     *    to the queue lock.
     *  - queued -> lean: after a probation of PROBATION queued releases, unless the lock is busy then:
     *    in queued mode every arrival queues, so the queue of a lock made queued by a passing burst
     *    never empties, and the lock cannot see from it whether lean would do; but it can measure
     *    the share of time it is held. When its last measured acquisitions held it BUSY_PERCENT of
     *    their time while most of their releases found a thread queued, it is its threads' bottleneck
     *    and stays queued for a probation twice as long. Without that, a hot lock went lean at every
     *    probation's end and back at once, unfair and slower each time. If the lock turns queued
     *    again within fewer lean acquisitions than its last probation, the next probation doubles (at
     *    most MAX_PROBATION); a lean phase at least that long starts the next from PROBATION. Or
     *    when every release for QUIET_TO_LEAN_NANOS found nobody queued in the queue lock nor parked
     *    on the word (then the next probation starts from PROBATION too). A streak of quiet releases
     *    was tried first and cooled too early: a saturated NumaHandoffLock has moments with its queue
     *    empty, every waiter woken ahead and waiting for a carrier.
     *    The owner releases the word as FREE (still holding the queue lock) and then the queue lock.
     *    A later holder of the queue lock that finds the word not QUEUED releases the queue lock and
     *    takes the lean path.
     *
     * Invariants
     *  - Mutual exclusion: a thread runs its critical section only if it took the word FREE -> HELD
     *    (lean) or it holds the queue lock and read the word QUEUED (queued). The word turns QUEUED
     *    only from HELD, by the lean owner as its release, so no lean owner is inside then; it leaves
     *    QUEUED only by a queue-lock holder as its release, so no queued owner is inside then; and
     *    while it is QUEUED, no CAS from FREE can succeed and the queue lock admits one thread.
     *    // checked by NumaAdaptiveLockTest.mutualExclusionAcrossModeSwitches
     *    // checked by NumaAdaptiveLockTests.ModeSwitchRacesLeanArrival (jcstress, also CrossNode)
     *  - No lost wake-up at a switch: a lean waiter parked in the word's queue is woken by a release
     *    (FREE or QUEUED both signal the first waiter), and a waiter woken into queued mode wakes the
     *    next before it leaves, so every parked waiter is woken once the word turns QUEUED.
     *    // checked by NumaAdaptiveLockTest.parkedLeanWaitersMoveToTheQueueWhenItTurnsOn
     *    // checked by NumaAdaptiveLockNoHangTest
     *  - A virtual thread never spins unboundedly: a lean spin ends after SPIN_NANOS or as soon as
     *    the owner is not running; the queue lock's waiting is bounded the same way (its Overview).
     *  - Starvation-free: a lean waiter can be overtaken, but once one has lost more than
     *    STARVING_LOSSES times over STARVING_NANOS the lock turns queued at the next release, and
     *    the queue lock's reservation bounds waits.
     *    // checked by NumaAdaptiveLockTest.aWaiterThatLostMoreAttemptsThanTheBoundTurnsTheLockQueued
     *    // and NumaAdaptiveLockTest.aWaiterThatLostForLessThanTheStarvingTimeKeepsTheLockLean
     *  - A long wait behind one holder, with no attempt lost to anyone else, keeps the lock lean.
     *    // checked by NumaAdaptiveLockTest.aWaiterHeldUpLongWithoutLosingKeepsTheLockLean
     *  - Queued to lean once nobody queues for QUIET_TO_LEAN_NANOS, and not while anyone does
     *    before the probation ends; lean again after the probation, which doubles while lean phases
     *    are shorter, and starts afresh after a longer one.
     *    // checked by NumaAdaptiveLockTest.aQueuedLockTurnsLeanWhenItStaysQuiet
     *    // checked by NumaAdaptiveLockTest.aQueuedLockWithWaitersStaysQueued
     *    // checked by NumaAdaptiveLockTest.probationDoublesWhileTheLockTurnsQueuedAgainAtOnce
     *    // checked by NumaAdaptiveLockTest.probationStartsAfreshAfterALongLeanPhase
     *  - A queued lock held BUSY_PERCENT of the time by waited-for holders stays queued past its
     *    probation or a starving waiter's turn, and one held briefly turns lean at its end.
     *    // checked by NumaAdaptiveLockTest.aBusyQueuedLockStaysQueuedPastItsProbation
     *    // checked by NumaAdaptiveLockTest.aBusyStarvingTurnBecomesAProbation
     *  - Lean to queued by a window: saturated with short holds, or with long holds its waiters spin
     *    through, or with parked acquisitions, or the second of two busy sampled windows in a row whose
     *    waiters spin; a busy window held a small share of its time, or whose waiters arrive late in
     *    the hold, does not count; a saturated window of long holds whose waiters arrive
     *    as it frees stays lean, and so does a lock that has waiters parked at
     *    window end after window end while its windows' own acquisitions do not park, and one whose
     *    waiters park only behind an owner that ran past the spin bound while its holds are short.
     *    // checked by NumaAdaptiveLockTest.aSaturatedLockWithShortHoldsTurnsQueuedAndWithLongHoldsStaysLean
     *    // checked by NumaAdaptiveLockTest.aSaturatedLockWhoseWaitersSpinThroughLongHoldsTurnsQueued
     *    // checked by NumaAdaptiveLockTest.twoBusySampledWindowsInARowWhoseWaitersSpinTurnTheLockQueued
     *    // checked by NumaAdaptiveLockTest.onTwoNodesASaturatedLockTurnsQueuedWhateverItsHold
     *    // checked by NumaAdaptiveLockTest.aLockWhoseWaitersParkTurnsQueued
     *    // checked by NumaAdaptiveLockTest.waitersLeftParkedAtWindowEndsKeepTheLockLean
     *    // checked by NumaAdaptiveLockTest.parksBehindAnOwnerThatRanPastTheSpinCountOnlyWithLongHolds
     *  - A virtual lean owner whose release wakes one of PARKED_TO_YIELD parked waiters yields its
     *    carrier to it (the woken waiter is queued on that carrier) while most of the window's
     *    acquisitions so far contended (YIELD_BUSY_PERCENT), and runs on otherwise; at a window's end
     *    a release that wakes any parked waiter yields (while a waiter is parked, a thread that
     *    keeps taking the lock keeps its carrier for at most a window's acquisitions).
     *    // checked by NumaAdaptiveLockYieldTest
     *
     * Accepted races
     *  - The owner-running check reads a thread's state that may change right after: a spinner may
     *    spin one bound too long, or park when it could have spun; neither affects correctness.
     *  - A waiter that leaves the word's queue because it read QUEUED may find the lock lean again
     *    when it gets the queue lock (cooled meanwhile): it releases the queue lock and starts over.
     *
     * Memory: a lock is the lean word and its statistics (see NumaAdaptiveLockTest's layout test);
     * the queue lock, hundreds of bytes of padded per-node queues, is made only for a lock that got
     * saturated, so a store with thousands of mostly idle stripes stays small.
     */

    /** Lean: how long an arrival spins for a held word while its owner runs, before it parks. */
    static final long SPIN_NANOS = 10_000L;

    /** The number of acquisitions the mode decision looks back on. */
    static final int WINDOW = 64;

    /**
     * Lean to queued: this many acquisitions of a window parked first. A lean lock whose waiters
     * park (its owner unmounts while it holds it, or holds it past the spin) pays an unpark and a
     * mount per handoff, and a woken virtual thread waits for a carrier the releasing owner may keep;
     * the queue lock hands over to a running successor instead. Not a park after a spin that ran out
     * its bound while the owner ran, unless the sampled hold is as long as that bound: a stall of the
     * owner's carrier, not the lock's way of being held. A count of waiters parked at one
     * release was tried first: a stripe of a striped store had four parked now and then (a
     * safepoint or the host stops a carrier while its thread holds the stripe, and the spinners time
     * out), turned queued, and a queue that every arrival joins never looks quiet again.
     */
    static final int PARKED_TO_QUEUE = 16;

    /** spinLean's answer when its bound passed while the owner ran. */
    static final long SPUN_OUT = -2L;

    /**
     * Lean to queued: this many contended acquisitions (spun or parked) of a window, while the
     * window's sampled hold is shorter than SHORT_HOLD_NANOS. Such a lock is passed between the
     * carriers at every acquisition and each pass moves the word's and the section's cache lines,
     * which costs as much as the section itself; the queue lock's time slice keeps it on one carrier
     * for a turn. With longer sections the same saturation is what a lean lock does best: one carrier
     * runs the section while the other works outside it (a spinning waiter takes over at once), on
     * one node; on more than one, the hold does not matter (the Overview).
     */
    static final int SATURATED_TO_QUEUE = 56;

    /** A hold shorter than this is short. */
    static final long SHORT_HOLD_NANOS = 500L;

    /**
     * Lean to queued, whatever the hold: a saturated window whose spinning acquisitions spun, on
     * average, at least this share (percent) of the sampled hold. Such waiters spin through whole
     * holds: one carrier only waits while the other runs the section, and a pair of threads passes
     * the lock between the carriers while the others wait in the carriers' run queues (~2 µs
     * sections, all work inside: Jain 0.29, longest wait 3.6x the fair lock's, JOURNAL 2026-11-26
     * 12:15). With as much work outside the lock, the same saturated windows spin ~20 ns on average
     * (the next owner arrives as the lock frees: lean's pipeline), against ~1.1 µs (about 40% of the
     * hold, over all lean windows) with none. A quarter also turned one stripe of Zipf counting a
     * line at a time queued now and then (its spinners wait ~0.25 µs on average), 13% slower; half
     * did not (JOURNAL 2026-11-26 12:40).
     */
    static final int LONG_SPIN_PERCENT = 50;

    /**
     * The hold is sampled in one window of 8 (its first acquisition, two clock reads): 0.05 clock
     * reads per acquisition, about 1 ns of a lean acquisition's cost with a clock read once per window.
     */
    static final int SAMPLE_EVERY_MASK = 7;

    /**
     * Queued to lean, saturated or not: after this many queued acquisitions the lock tries lean again,
     * and when it turns queued again within fewer lean acquisitions than that, the next probation
     * doubles (up to MAX_PROBATION); a lean phase at least as long starts again from here. A queued
     * lock cannot tell from its own queue whether lean would do: every arrival queues, so its queue
     * never empties under the load that made it queued, even when that load was a passing one.
     */
    static final int PROBATION = 4096;

    /** The longest probation: about a second of queued acquisitions of a microsecond. */
    static final int MAX_PROBATION = 1 << 20;

    /**
     * A lean owner whose release finds this many waiters parked yields its carrier after it (a
     * virtual thread), while the lock is busy (YIELD_BUSY_PERCENT): the waiter the release woke is
     * queued on this carrier (see yieldToWoken). At a window's end one parked waiter is enough: a
     * thread that takes the lock again and again while the others wait, parked or queued on its
     * carrier by the wake-ups, would keep the carrier until it ran out of work (a new hot lock met by
     * 64 threads at once: one thread took every acquisition of window after window, none
     * contended, and Jain's index of the threads' shares was 0.18-0.28; with this rule 0.53-0.90),
     * and a window is a turn long enough that a striped store's stripe, whose waiters park only
     * when a stall stops an owner, yields a few hundred times a round of counting (JOURNAL
     * 2026-11-26 17:40, 18:05).
     */
    static final int PARKED_TO_YIELD = 4;

    /**
     * The yield after a lean release is for a busy lock: at least this share (percent) of the window's
     * acquisitions so far contended. On a striped store's stripe a stall of one owner parks a few
     * waiters, and until they have the lock again every release would yield (about 1,300 yields a
     * round of Zipf counting into 4 stripes, each a carrier's unmount and mount) while the waiters
     * find the lock free: measured, rounds 5-8% longer (JOURNAL 2026-11-26 15:40).
     */
    static final int YIELD_BUSY_PERCENT = 50;

    /**
     * Queued, at a probation's end (or a starving waiter's turn's): the lock stays queued (and the
     * next probation doubles, or the turn becomes a probation) when its last acquisitions (the last
     * WINDOW, or half the probation or turn if shorter) held it at least this share
     * (percent) of their time, measured from each outermost acquisition to its release, and at least
     * half of their releases found a thread queued. Such a lock is its threads' bottleneck (a hot lock;
     * one stripe of Zipf counting): a lean phase would only hand it over by barging and parking, and
     * measure the same. A striped store's stripe, turned queued by a burst, is held a small share of
     * the time and tries lean. One hold sampled in lean mode could not tell them apart (one hold of a
     * stripe varies from 50 ns to a microsecond, with its map's cache misses); the holds measured here
     * are disjoint, so their sum never passes the time they span, and each counts at most SPIN_NANOS
     * (a hold longer than a lean waiter spins is one it parks for anyway), so that one stretched by a
     * stall (a safepoint, the host stopping the carrier) does not fill it.
     */
    static final int BUSY_PERCENT = 50;

    /**
     * Lean to queued, with fewer than SATURATED_TO_QUEUE of a window's acquisitions contended: two
     * sampled windows in a row whose sampled hold, taken as every acquisition's, fills at least this
     * share (percent) of the window's span, with a quarter or more of each one's acquisitions
     * contended, and the second one's spinners spinning on average BUSY_SPIN_PERCENT of the hold.
     * A hot lock with all its work inside is passed back to the thread that released it about every
     * other acquisition on 2 carriers (it takes the lock again before the spinner on the other
     * carrier sees it free), so its windows count 16 to 45 contended at ~0.2 µs, while the parked
     * waiters lose to it again and again (~0.2 µs sections: Jain 0.5-0.9, where NUMA_HANDOFF's
     * queue has 1.00; JOURNAL 2026-11-26 22:30). One sample proved too noisy for a stripe
     * of a striped store (see the Overview); of the windows logged on 4 stripes of Zipf counting,
     * none was busy with its spinners spinning BUSY_SPIN_PERCENT (ditto).
     */
    static final int SATURATED_BUSY_PERCENT = 75;

    /**
     * The share (percent) of the sampled hold a busy window's spinners spin on average, at least, for
     * the window to count as saturated. With as much work outside the lock as inside, the busy
     * windows' spinners spin 0-11% of the hold (the next owner arrives as the lock frees: the lean
     * pipeline, which the queue lock only slows); with all the work inside, 14-40% at ~2 µs and most
     * at ~0.2 µs (JOURNAL 2026-11-26 22:30).
     */
    static final int BUSY_SPIN_PERCENT = 20;

    /**
     * A busy share that is never reached: disjoint holds fill their span at most. The lean rule,
     * which takes one hold for all, can pass it, and is off at this share.
     */
    static final int NEVER_BUSY = 101;

    /** Queued to lean: every release for this long found no thread waiting. */
    static final long QUIET_TO_LEAN_NANOS = 10_000_000L;

    /**
     * A parked lean waiter that lost more attempts than this to other threads, over at least
     * STARVING_NANOS, turns the lock queued.
     */
    public static final int STARVING_LOSSES = 16;

    /**
     * A waiter that starves within fewer lean acquisitions than this after a starving waiter's short
     * queued turn makes the switch a hot one, which starts a probation: a lock whose waiters starve
     * whenever it is lean (one hot lock with all the work inside, ~2 µs) cycled through ~250 short
     * turns a round, about 0.9x the throughput it has with a probation, Jain 0.95; one stripe counted
     * a line at a time starves every few thousand.
     */
    static final int STARVING_AGAIN = 16 * WINDOW;

    /** The shortest lean wait, from its first lost attempt, that counts as starving (Go's sync.Mutex: 1 ms). */
    public static final long STARVING_NANOS = 1_000_000L;

    /**
     * The calling thread's current lean wait, kept by the word's tryAcquire: [0] the attempts it lost,
     * [1] nanoTime of its first loss.
     */
    private static final ThreadLocal<long[]> LOSSES = ThreadLocal.withInitial(() -> new long[2]);

    static final int FREE = 0;
    static final int HELD = 1;
    static final int QUEUED = 2;

    private static final VarHandle QUEUE;

    static {
        try {
            QUEUE = MethodHandles.lookup().findVarHandle(NumaAdaptiveLock.class, "queue", QueuedMode.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Word word;
    private final NodeLocator nodes;
    private final Duration reserveAfter; // the queue lock's reservation threshold
    private final int carriers; // the queue lock's carrier count
    private final LockProbe probe; // null without one
    private final boolean hearsFast; // probe != null && probe.hearsFastPath()
    private final boolean probeTimed; // probe != null && probe.timed()
    // CAS once (null -> queued mode) by the first owner that switches; read (acquire) after the word reads QUEUED
    private QueuedMode queue;

    /** A lock whose queued mode is a {@link NumaHandoffLock} over the context's nodes; the defaults, no probe. */
    public NumaAdaptiveLock(LockContext context) {
        this(context, NumaMcsLock.DEFAULT_RESERVE_AFTER, LockProbe.NONE);
    }

    /**
     * A lock whose queued mode is a {@link NumaHandoffLock} over the context's nodes with the reservation
     * threshold {@code reserveAfter}, reporting to {@code probe} ({@link LockProbe#NONE} for none): its
     * acquisitions in both modes and its mode switches (the queue lock itself reports nothing).
     */
    public NumaAdaptiveLock(LockContext context, Duration reserveAfter, LockProbe probe) {
        this(context, reserveAfter, probe, Thresholds.DEFAULTS);
    }

    /** For tests that need every acquisition to switch modes (jcstress): {@code thresholds} instead of the defaults. */
    NumaAdaptiveLock(LockContext context, Duration reserveAfter, LockProbe probe, Thresholds thresholds) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(reserveAfter, "reserveAfter");
        this.word = new Word(context.nodes().nodeCount() > 1 ? Thresholds.onSeveralNodes(thresholds) : thresholds);
        this.nodes = context.nodes();
        this.reserveAfter = reserveAfter;
        this.carriers = context.carriers();
        this.probe = LockProbe.orNull(probe);
        this.hearsFast = this.probe != null && this.probe.hearsFastPath();
        this.probeTimed = this.probe != null && this.probe.timed();
    }

    /**
     * The queue lock of the queued mode, made at the first switch. A probe deaf to the fast path (the
     * default JFR probe) is the queue lock's own: it then hears the queue lock's waits where the queue
     * lock measures them, on its slow path, and a queued acquisition costs this lock no extra read of
     * the queue lock's word and no clock read. A probe that hears every acquisition is told by this
     * lock, once per acquisition, whatever the mode.
     */
    private NumaHandoffLock newQueue() {
        return new NumaHandoffLock(nodes, reserveAfter, carriers, probe == null || hearsFast ? LockProbe.NONE : probe);
    }

    /**
     * By the new owner after an outermost acquisition (with a probe): tells the probe, keeping what a timed
     * probe's release report needs. {@code asked} is the clock at the start of the wait (or of the call, when
     * timed).
     */
    private void reportAcquired(boolean slow, long asked) {
        if (slow ? asked != 0L : hearsFast) { // a slow one was timed from 0 only when its probe did not want it
            long now = probeTimed || slow ? System.nanoTime() : 0L;
            long wait = now - asked;
            if (probeTimed) { // kept in the word, whose line the owner holds: the lock's own line stays read-only
                Word w = word;
                w.waited = slow;
                w.acquiredAt = now;
                w.waitNanos = wait;
            }
            probe.acquired(slow, wait);
        }
    }

    /** The clock at the start of a call, for a timed probe; else 0. */
    private long askedAt() {
        return probeTimed ? System.nanoTime() : 0L;
    }

    @Override
    public void lock() {
        Thread current = Thread.currentThread();
        long asked = askedAt();
        if (!acquiredAtOnce(current, asked)) {
            acquireSlow(current, false, 0L, false);
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        Thread current = Thread.currentThread();
        long asked = askedAt();
        if (!acquiredAtOnce(current, asked) && acquireSlow(current, true, 0L, false) < 0) {
            throw new InterruptedException();
        }
    }

    @Override
    public boolean tryLock() {
        Thread current = Thread.currentThread();
        long asked = askedAt();
        if (acquiredAtOnce(current, asked)) {
            return true;
        }
        Word w = word;
        if (w.getStateVolatile() == QUEUED) {
            QueuedMode mode = (QueuedMode) QUEUE.getAcquire(this);
            NumaHandoffLock q = mode.lock;
            if (q.tryLock()) {
                if (w.getStateVolatile() == QUEUED) {
                    mode.acquired();
                    if (hearsFast) {
                        reportAcquired(false, asked);
                    }
                    return true;
                }
                q.unlock(); // turned lean meanwhile
                if (w.casState(FREE, HELD)) {
                    w.ownedLean(current, false);
                    if (hearsFast) {
                        reportAcquired(false, asked);
                    }
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        Thread current = Thread.currentThread();
        long asked = askedAt();
        if (acquiredAtOnce(current, asked)) {
            return true;
        }
        long deadline = System.nanoTime() + Math.max(0L, unit.toNanos(time));
        int outcome = acquireSlow(current, true, deadline, true);
        if (outcome < 0) {
            throw new InterruptedException();
        }
        return outcome > 0;
    }

    @Override
    public void unlock() {
        Thread current = Thread.currentThread();
        Word w = word;
        // The owner field names only a lean owner, and only that owner writes it: so this thread
        // holds the lock lean exactly when it reads itself there. Kept small, to be inlined.
        if (w.owner() == current) {
            if (w.holds > 0) {
                w.holds--;
            } else {
                releaseLean(w, current);
            }
        } else {
            releaseQueued(w, current);
        }
    }

    /** The lean owner's outermost release. */
    private void releaseLean(Word w, Thread current) {
        // The owner field is cleared by the word's tryRelease, just before the state's volatile write.
        if (w.sampling) {
            w.endSample();
        }
        int yieldAt = w.yieldAt(); // read before the release hands the window's counters on
        if (probeTimed) {
            releaseLeanProbed(w, current, yieldAt);
            return;
        }
        yieldToWoken(current, releaseWord(w) >= yieldAt);
    }

    /**
     * The lean owner releases the word: FREE, or QUEUED when the window or a starving waiter says so.
     * Returns the waiters parked on the word, read just after the release.
     */
    private int releaseWord(Word w) {
        if (w.heatChecked() && w.heatDue()) {
            turnQueued(w);
            return w.parkedVolatile();
        }
        return w.releaseFree();
    }

    /** As releaseLean, with a timed probe told of the hold. */
    private void releaseLeanProbed(Word w, Thread current, int yieldAt) {
        long held = System.nanoTime() - w.acquiredAt;
        boolean slow = w.waited;
        long wait = w.waitNanos;
        boolean waiters = releaseWord(w) >= yieldAt;
        reportReleased(slow, wait, held);
        yieldToWoken(current, waiters);
    }

    /** The lean owner turns the lock queued as its release. */
    private void turnQueued(Word w) {
        if (probe != null) {
            probe.modeSwitched(true);
        }
        if (queueAcquire() == null) {
            QUEUE.compareAndSet(this, null, new QueuedMode(newQueue()));
        }
        w.release(Word.RELEASE_QUEUED); // published after the queue lock: whoever reads QUEUED finds it
    }

    /** A release by a thread that is not the lean owner: the queued owner's, or an error. */
    private void releaseQueued(Word w, Thread current) {
        if (w.getStateVolatile() == QUEUED) {
            QueuedMode mode = (QueuedMode) QUEUE.getAcquire(this);
            NumaHandoffLock q = mode.lock;
            int holds = q.getHoldCount(); // 0 unless the caller holds the queue lock
            if (holds > 1) {
                q.unlock();
                return;
            }
            if (holds == 1) {
                long held = probeTimed ? System.nanoTime() - w.acquiredAt : 0L;
                boolean slow = w.waited;
                long wait = w.waitNanos;
                boolean unmoved = w.parkedVolatile() > 0; // lean waiters not yet on their way to the queue lock
                if (w.coolDue(mode, unmoved)) {
                    if (probe != null) {
                        probe.modeSwitched(false);
                    }
                    w.release(Word.RELEASE_FREE); // lean again; we still hold the queue lock, past our section
                }
                q.unlock();
                reportReleased(slow, wait, held);
                yieldToWoken(current, unmoved);
                return;
            }
        }
        throw new IllegalMonitorStateException("unlock by a thread that does not hold the lock: " + current);
    }

    /**
     * After an outermost release, by the thread that released (a timed probe only): the wait and hold of
     * the acquisition it ended, read from the owner-only fields before the release let another owner in.
     */
    private void reportReleased(boolean slow, long wait, long held) {
        if (probeTimed && (slow || hearsFast)) {
            probe.released(slow, wait, held);
        }
    }

    /** Not supported, as with the other locks of this package. */
    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("NumaAdaptiveLock has no conditions");
    }

    /** Whether the calling thread holds this lock. */
    public boolean isHeldByCurrentThread() {
        return getHoldCount() > 0;
    }

    /** The calling thread's hold count: 0 when it does not hold the lock. */
    public int getHoldCount() {
        Word w = word;
        int state = w.getStateVolatile();
        if (state == HELD && w.owner() == Thread.currentThread()) {
            return w.holds + 1;
        }
        NumaHandoffLock q = queueAcquire();
        return state == QUEUED && q != null ? q.getHoldCount() : 0;
    }

    /**
     * The first attempt of every form of lock: takes a free word (its state read before the CAS: a
     * failing CAS would take the owner's line) or one more hold of a lock the caller holds lean. A
     * queued lock's holds are counted by the queue lock, whose own acquisition takes them, so a queued
     * arrival goes there with no further read; but a probe that hears every acquisition must not hear
     * a reentrant one, so with such a probe this asks the queue lock first.
     */
    private boolean acquiredAtOnce(Thread current, long asked) {
        Word w = word;
        // The CAS first, without reading the state before it (JOURNAL 2026-11-26 12:30: a read first
        // cost ~0.25 ns of an uncontended lock+unlock); its failure reads the state it found.
        int state = w.casOrState();
        if (state == FREE) {
            w.ownedLean(current, false);
            if (hearsFast) { // a fast acquisition is told only to a probe that hears them
                reportAcquired(false, asked);
            }
            return true;
        }
        if (state == HELD && w.owner() == current) { // only the owner can change the mode it holds
            w.reenter();
            return true;
        }
        if (state == QUEUED && hearsFast) {
            NumaHandoffLock q = queueAcquire();
            if (q.isHeldByCurrentThread()) {
                q.lock(); // the queue lock counts the holds
                return true;
            }
        }
        return false;
    }

    /** Whether any thread holds this lock; for monitoring, not for synchronization. */
    public boolean isLocked() {
        int state = word.getStateVolatile();
        if (state == HELD) {
            return true;
        }
        NumaHandoffLock q = queueAcquire();
        return state == QUEUED && q != null && q.isLocked();
    }

    /** Whether the lock is in its queued mode now; for monitoring and tests. */
    public boolean isQueued() {
        return word.getStateVolatile() == QUEUED;
    }

    /** Waiters parked on the lean word now (they count themselves until they have the lock); for tests. */
    int parkedWaiters() {
        return word.parkedVolatile();
    }

    /** How many times this lock switched between its modes (both ways); for monitoring and tests. */
    public long modeSwitches() {
        return word.switchesOpaque();
    }

    @Override
    public String toString() {
        return "NumaAdaptiveLock[" + (isQueued() ? "queued" : "lean") + (isLocked() ? ", locked" : ", unlocked") + "]";
    }

    /**
     * After a release that woke a parked waiter: a virtual thread yields its carrier. A virtual
     * thread unparked by another is queued on the unparker's carrier (the JDK scheduler's lazy
     * submit wakes no idle carrier), so an owner that takes the lock again at once, and never parks,
     * would keep it from ever running.
     */
    private static void yieldToWoken(Thread current, boolean woke) {
        if (woke && current.isVirtual()) {
            Thread.yield();
        }
    }

    private NumaHandoffLock queueAcquire() {
        QueuedMode mode = (QueuedMode) QUEUE.getAcquire(this);
        return mode == null ? null : mode.lock;
    }

    /**
     * The contended path of every form of lock: lean spin, park in the word's queue, or the queue lock.
     *
     * @return 1 acquired, 0 timed out (only when {@code timed}), -1 interrupted (only when {@code interruptible})
     */
    private int acquireSlow(Thread current, boolean interruptible, long deadline, boolean timed) {
        if (!hearsFast && word.getStateVolatile() == QUEUED) { // the queued mode's usual path, with nothing to set up
            int outcome = acquireQueued(current, interruptible, deadline, timed, 0L, false);
            if (outcome != 0 || timed && deadline - System.nanoTime() <= 0L) {
                return outcome == 0 && timed ? 0 : outcome;
            }
        }
        boolean[] parked = {false};
        try {
            return acquireSlow(current, interruptible, deadline, timed, parked);
        } finally {
            if (parked[0]) {
                word.addParked(-1);
            }
        }
    }

    private int acquireSlow(Thread current, boolean interruptible, long deadline, boolean timed, boolean[] parked) {
        Word w = word;
        // A waiting acquisition is always timed: from the call for a probe that hears every acquisition,
        // else from its first lean spin (a queued wait is timed by the queue lock, which then has the probe).
        boolean clocked = hearsFast || probeTimed || probe == null;
        long asked = hearsFast || probeTimed ? System.nanoTime() : 0L;
        boolean counting = false;
        boolean spunOut = false;
        for (; ; ) {
            int state = w.getStateVolatile();
            if (state == QUEUED) {
                int outcome = acquireQueued(current, interruptible, deadline, timed, asked, counting);
                if (outcome != 0 || timed && deadline - System.nanoTime() <= 0L) {
                    return outcome == 0 && timed ? 0 : outcome;
                }
                continue; // cooled while we queued: start over, lean
            }
            if (!clocked) {
                asked = probe.wantsWaitNow() ? System.nanoTime() : 0L; // 0: not reported
                clocked = true;
            }
            long spun = spinLean(current);
            spunOut |= spun == SPUN_OUT;
            if (spun >= 0L) {
                w.ownedLean(current, true);
                w.addSpun(spun);
                if (probe != null) {
                    reportAcquired(true, asked);
                }
                return 1;
            }
            if (w.getStateVolatile() == QUEUED) {
                continue;
            }
            if (timed && deadline - System.nanoTime() <= 0L) {
                return 0;
            }
            if (!counting) {
                LOSSES.get()[0] = 0L; // this wait's losses, counted by the word's tryAcquire
                counting = true;
            }
            if (!parked[0]) {
                w.addParked(1); // out again only once this thread has the lock, or gave up
                parked[0] = true;
            }
            try {
                boolean got;
                if (timed) {
                    long left = deadline - System.nanoTime();
                    got = left > 0L && w.tryAcquireNanos(Word.LEAN, left);
                    if (!got) {
                        return 0;
                    }
                } else if (interruptible) {
                    w.acquireInterruptibly(Word.LEAN);
                } else {
                    w.acquire(Word.LEAN);
                }
            } catch (InterruptedException e) {
                return -1;
            }
            if (w.tookWord(current)) {
                w.ownedLean(current, true);
                if (!spunOut || w.holdsPastSpin()) { // else the owner's carrier stalled: PARKED_TO_QUEUE
                    w.parkedInWindow++;
                }
                if (probe != null) {
                    reportAcquired(true, asked);
                }
                return 1;
            }
            // Woken because the word turned QUEUED: pass the wake-up on, then go to the queue lock. A
            // virtual thread first yields: the waiter it woke is queued on this carrier, and should
            // reach the queue lock (and park in it) before this one may run on without parking.
            w.release(Word.PASS_ON);
            yieldToWoken(current, true);
        }
    }

    /**
     * Spins for a held word while its owner runs, at most SPIN_NANOS. Returns -1 when it did not take
     * the word because the owner stopped running, the lock turned queued or there is no spin;
     * SPUN_OUT when the bound passed while the owner ran; else about how long it spun: 0 for a spin too
     * short to have read the clock (under 32 rounds), else from its first clock read (one more read,
     * once the word is taken).
     */
    private long spinLean(Thread current) {
        Word w = word;
        long spinNanos = w.thresholds.spinNanos(); // a contended path: one more read of a shared, read-only line
        if (spinNanos == 0L) {
            return w.getStateVolatile() == FREE && w.casState(FREE, HELD) ? 0L : -1L;
        }
        long until = 0L;
        for (int round = 0; ; round++) {
            int state = w.getStateVolatile();
            if (state == FREE) {
                if (w.casState(FREE, HELD)) {
                    return until == 0L ? 0L : Math.max(0L, System.nanoTime() - (until - spinNanos));
                }
            } else if (state == QUEUED) {
                return -1L;
            } else if ((round & 31) == 31) {
                if (!MountState.isRunning(w.owner())) {
                    return -1L;
                }
                long now = System.nanoTime();
                if (until == 0L) {
                    until = now + spinNanos;
                } else if (now - until > 0L) {
                    return SPUN_OUT;
                }
            }
            Thread.onSpinWait();
        }
    }

    /** One pass through the queue lock; 1 acquired, 0 cooled meanwhile or timed out, -1 interrupted. */
    private int acquireQueued(
            Thread current, boolean interruptible, long deadline, boolean timed, long asked, boolean parkedLean) {
        Word w = word;
        QueuedMode mode = (QueuedMode) QUEUE.getAcquire(this);
        NumaHandoffLock q = mode.lock;
        boolean queueHeld = hearsFast && q.isLocked(); // read only for a probe that hears every acquisition
        try {
            if (timed) {
                long left = deadline - System.nanoTime();
                if (left <= 0L || !q.tryLock(left, TimeUnit.NANOSECONDS)) {
                    return 0;
                }
            } else if (interruptible) {
                q.lockInterruptibly();
            } else {
                q.lock();
            }
        } catch (InterruptedException e) {
            return -1;
        }
        if (w.getStateVolatile() == QUEUED) {
            mode.acquired();
            if (hearsFast) {
                reportAcquired(parkedLean || queueHeld, asked); // parked in lean mode, or found the queue held
            } else if (parkedLean && probe != null) {
                reportAcquired(true, asked); // its lean wait; the queue lock reported a wait in it itself
            }
            return 1;
        }
        q.unlock();
        return 0;
    }

    /**
     * When the mode switches, and how long a lean arrival spins ({@code spinNanos}). Lean to queued, at
     * the end of a window of {@code window} acquisitions: {@code saturatedToQueue} of them contended
     * while the window's sampled hold was shorter than {@code shortHoldNanos}, or {@code parkedToQueue}
     * of them parked; or at once, when a parked waiter lost more than {@code starvingLosses} attempts
     * over at least {@code starvingNanos}.
     * Queued to lean: {@code quietToLeanNanos} with nobody queued at any release, or a probation of
     * {@code probation} queued acquisitions, doubled up to {@code maxProbation} while lean phases stay
     * shorter than the probation before them.
     */
    record Thresholds(
            int window,
            int saturatedToQueue,
            long shortHoldNanos,
            int parkedToQueue,
            int starvingLosses,
            long starvingNanos,
            long quietToLeanNanos,
            int probation,
            int maxProbation,
            long spinNanos,
            int busyPercent,
            int saturatedBusyPercent) {
        static final Thresholds DEFAULTS = new Thresholds(
                WINDOW,
                SATURATED_TO_QUEUE,
                SHORT_HOLD_NANOS,
                PARKED_TO_QUEUE,
                STARVING_LOSSES,
                STARVING_NANOS,
                QUIET_TO_LEAN_NANOS,
                PROBATION,
                MAX_PROBATION,
                SPIN_NANOS,
                BUSY_PERCENT,
                SATURATED_BUSY_PERCENT);

        /**
         * No lean spin (a contended arrival parks at once), every contended acquisition turns the lock
         * queued, and every queued release turns it lean again (a probation of one).
         */
        static final Thresholds EAGER =
                new Thresholds(1, 1, Long.MAX_VALUE, 1, 0, 0L, 0L, 1, 1, 0L, NEVER_BUSY, NEVER_BUSY);

        /** No lean spin (a contended arrival parks at once) and no switch: every handoff is lean. */
        static final Thresholds LEAN_PARKING = new Thresholds(
                WINDOW,
                Integer.MAX_VALUE,
                0L,
                Integer.MAX_VALUE,
                Integer.MAX_VALUE,
                Long.MAX_VALUE,
                QUIET_TO_LEAN_NANOS,
                PROBATION,
                MAX_PROBATION,
                0L,
                BUSY_PERCENT,
                NEVER_BUSY);

        Thresholds {
            if (window < 1 || probation < 1 || maxProbation < probation) {
                throw new IllegalArgumentException("window and probation must be positive, maxProbation >= probation");
            }
        }

        /** These thresholds with {@code losses} as the starving bound. */
        Thresholds withStarvingLosses(int losses) {
            Copy c = new Copy(this);
            c.starvingLosses = losses;
            return c.thresholds();
        }

        /** These thresholds with {@code nanos} as the shortest starving wait. */
        Thresholds withStarvingNanos(long nanos) {
            Copy c = new Copy(this);
            c.starvingNanos = nanos;
            return c.thresholds();
        }

        /** These thresholds with another probation (and its maximum). */
        Thresholds withProbation(int first, int max) {
            Copy c = new Copy(this);
            c.probation = first;
            c.maxProbation = max;
            return c.thresholds();
        }

        /** These thresholds with another busy share (percent) that keeps a queued lock queued after its probation. */
        Thresholds withBusyPercent(int percent) {
            Copy c = new Copy(this);
            c.busyPercent = percent;
            return c.thresholds();
        }

        /** These thresholds with another lean spin (also the longest hold a busy measure counts). */
        Thresholds withSpinNanos(long nanos) {
            Copy c = new Copy(this);
            c.spinNanos = nanos;
            return c.thresholds();
        }

        /** These thresholds with another quiet time that turns a queued lock lean. */
        Thresholds withQuietToLeanNanos(long nanos) {
            Copy c = new Copy(this);
            c.quietToLeanNanos = nanos;
            return c.thresholds();
        }

        /** The defaults on a machine of more than one node: every hold counts as short (the Overview). */
        static final Thresholds DEFAULTS_ON_SEVERAL_NODES = anyHoldShort(DEFAULTS);

        /** {@code t} for a lock on more than one node: a saturated window turns queued whatever its hold. */
        static Thresholds onSeveralNodes(Thresholds t) {
            return t == DEFAULTS ? DEFAULTS_ON_SEVERAL_NODES : anyHoldShort(t);
        }

        private static Thresholds anyHoldShort(Thresholds t) {
            return t.withWindow(t.window(), t.saturatedToQueue(), Long.MAX_VALUE, t.parkedToQueue());
        }

        /** These thresholds with another lean-to-queued window and its triggers. */
        Thresholds withWindow(int size, int saturated, long shortHold, int parked) {
            Copy c = new Copy(this);
            c.window = size;
            c.saturatedToQueue = saturated;
            c.shortHoldNanos = shortHold;
            c.parkedToQueue = parked;
            return c.thresholds();
        }

        /** A mutable copy, for the with-methods. */
        private static final class Copy {
            int window;
            int saturatedToQueue;
            long shortHoldNanos;
            int parkedToQueue;
            int starvingLosses;
            long starvingNanos;
            long quietToLeanNanos;
            int probation;
            int maxProbation;
            long spinNanos;
            int busyPercent;
            int saturatedBusyPercent;

            Copy(Thresholds t) {
                window = t.window;
                saturatedToQueue = t.saturatedToQueue;
                shortHoldNanos = t.shortHoldNanos;
                parkedToQueue = t.parkedToQueue;
                starvingLosses = t.starvingLosses;
                starvingNanos = t.starvingNanos;
                quietToLeanNanos = t.quietToLeanNanos;
                probation = t.probation;
                maxProbation = t.maxProbation;
                spinNanos = t.spinNanos;
                busyPercent = t.busyPercent;
                saturatedBusyPercent = t.saturatedBusyPercent;
            }

            Thresholds thresholds() {
                return new Thresholds(
                        window,
                        saturatedToQueue,
                        shortHoldNanos,
                        parkedToQueue,
                        starvingLosses,
                        starvingNanos,
                        quietToLeanNanos,
                        probation,
                        maxProbation,
                        spinNanos,
                        busyPercent,
                        saturatedBusyPercent);
            }
        }
    }

    /**
     * The queued mode: the queue lock and what only its owners write, off the word's line (read by
     * every arrival), so a queued release writes nothing a waiter reads.
     */
    static final class QueuedMode {
        final NumaHandoffLock lock;
        // All queue-lock owner only:
        int releases; // outermost queued releases since this lock turned queued (or stayed queued)
        long measuredFrom; // nanoTime when the probation's last acquisitions began to be measured; 0: not measuring
        long acquiredAt; // while measuring: nanoTime of the owner's outermost acquisition, 0 when not taken
        long heldNanos; // while measuring: the measured acquisitions' holds
        int measured; // while measuring: outermost releases measured
        int waitedFor; // while measuring: of those, releases that found a thread queued

        QueuedMode(NumaHandoffLock lock) {
            this.lock = lock;
        }

        /** The queue-lock owner, after a queued acquisition: an outermost one's hold is measured, if any is. */
        void acquired() {
            if (measuredFrom != 0L && lock.getHoldCount() == 1) {
                acquiredAt = System.nanoTime();
            }
        }

        /**
         * The queue-lock owner at an outermost release while measuring: adds its hold, at most
         * {@code holdCap}, and whether it is waited for.
         */
        void measure(boolean waited, long holdCap) {
            if (acquiredAt != 0L) {
                heldNanos += Math.min(holdCap, System.nanoTime() - acquiredAt);
                acquiredAt = 0L;
                measured++;
                if (waited) {
                    waitedFor++;
                }
            }
        }

        /**
         * At the probation's end: whether the measured acquisitions held the lock busyPercent of their
         * time while most of their releases found a thread queued. Stops measuring.
         */
        boolean busy(int busyPercent) {
            long span = System.nanoTime() - measuredFrom;
            boolean busy = measured > 0 && 2 * waitedFor >= measured && 100L * heldNanos >= span * busyPercent;
            stopMeasuring();
            return busy;
        }

        void stopMeasuring() {
            measuredFrom = 0L;
            acquiredAt = 0L;
            heldNanos = 0L;
            measured = 0;
            waitedFor = 0;
        }
    }

    /**
     * The word: the state (FREE, HELD or QUEUED), the owner and the owner-only statistics, after a lead
     * of padding and before the cold statistics, so no other object's fields share the lines a lean
     * handoff moves; its parked waiters queue in {@link Parking}, an AQS of its own.
     */
    static final class Word extends WordColdFields {

        /** acquire: take a FREE word, or leave the queue when the word is QUEUED. */
        static final int LEAN = 1;
        /** release: the owner frees the word. */
        static final int RELEASE_FREE = 1;
        /** release: the owner turns the word QUEUED. */
        static final int RELEASE_QUEUED = 2;
        /** release: a waiter that left because of QUEUED wakes the next one; the state does not change. */
        static final int PASS_ON = 3;

        private static final VarHandle STATE;
        private static final VarHandle SWITCHES;
        private static final VarHandle STARVING_WAITER;
        private static final VarHandle PARKED;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                STATE = lookup.findVarHandle(WordFields.class, "state", int.class);
                SWITCHES = lookup.findVarHandle(WordColdFields.class, "switches", long.class);
                STARVING_WAITER = lookup.findVarHandle(WordFields.class, "starvingWaiter", boolean.class);
                PARKED = lookup.findVarHandle(WordFields.class, "parked", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final Thresholds thresholds; // final, shared: the defaults' one instance, or a test's
        private final int windowSize; // read by every lean release
        private final Parking parking; // read by every lean release (its head: whether anyone parked)

        Word(Thresholds thresholds) {
            this.thresholds = thresholds;
            this.windowSize = thresholds.window();
            this.probation = thresholds.probation();
            this.turn = probation;
            this.leanWindows = Integer.MAX_VALUE; // lean since it was made: its first saturation starts afresh
            this.sampledHold = Integer.MAX_VALUE; // not measured yet: not short
            this.parking = new Parking(this);
        }

        /** Parks until it took the word ({@link #tookWord}) or the word turned QUEUED. */
        void acquire(int arg) {
            parking.acquire(arg);
        }

        void acquireInterruptibly(int arg) throws InterruptedException {
            parking.acquireInterruptibly(arg);
        }

        boolean tryAcquireNanos(int arg, long nanos) throws InterruptedException {
            return parking.tryAcquireNanos(arg, nanos);
        }

        /** Releases as {@code arg} says, then wakes the first parked waiter, if any. */
        void release(int arg) {
            parking.release(arg);
        }

        /**
         * The lean owner's usual release: FREE, then, only when a waiter is counted parked, the wake-up
         * of the first parked one. Returns the count read. Dekker's handshake with a waiter, both
         * sides volatile: it counts itself parked before it enqueues and re-reads the state; the
         * release writes the state, then reads the count. So a count of 0 here means any waiter
         * counted after it finds the word FREE (or held by a later owner, whose release reads the
         * count again), and this release wakes nobody, as AQS's would with nobody queued, without
         * reading the parking queue.
         */
        int releaseFree() {
            owner = null;
            STATE.setVolatile(this, FREE);
            int parkedNow = parkedVolatile();
            if (parkedNow != 0) {
                parking.release(PASS_ON); // the state is written: only the wake-up is left
            }
            return parkedNow;
        }

        /** Parking's tryAcquire: takes a FREE word, or leaves the queue when it is QUEUED. */
        boolean tryTake() {
            int state = getStateVolatile();
            if (state == FREE && casState(FREE, HELD)) {
                owner = Thread.currentThread();
                return true;
            }
            if (state == QUEUED) {
                return true; // leave the word's queue: the caller goes to the queue lock
            }
            long[] lost = LOSSES.get();
            long losses = ++lost[0];
            if (losses == 1L) {
                lost[1] = System.nanoTime(); // a parked path: a clock read per wait, then per loss past the bound
            }
            long starvingNanos = thresholds.starvingNanos();
            if (losses > thresholds.starvingLosses()
                    && !starvingWaiter
                    && (starvingNanos == 0L || System.nanoTime() - lost[1] >= starvingNanos)) {
                STARVING_WAITER.setOpaque(this, true); // the owner turns the lock queued at its release
            }
            return false;
        }

        /** Parking's tryRelease: the state's volatile write, before Parking reads its head. */
        boolean giveUp(int arg) {
            switch (arg) {
                case RELEASE_FREE -> {
                    owner = null;
                    STATE.setVolatile(this, FREE);
                }
                case RELEASE_QUEUED -> {
                    owner = null;
                    STATE.setVolatile(this, QUEUED);
                }
                default -> {} // PASS_ON
            }
            return true; // always signal the first parked waiter
        }

        /** After a parked acquire: whether it took the word (rather than leaving because it is QUEUED). */
        boolean tookWord(Thread current) {
            return owner == current;
        }

        void addParked(int delta) {
            PARKED.getAndAdd(this, delta);
        }

        int parkedVolatile() {
            return (int) PARKED.getVolatile(this);
        }

        boolean casState(int expect, int update) {
            return STATE.compareAndSet(this, expect, update);
        }

        /** FREE -> HELD: FREE when this thread took the word, else the state the CAS found. */
        int casOrState() {
            return (int) STATE.compareAndExchange(this, FREE, HELD);
        }

        int getStateVolatile() {
            return (int) STATE.getVolatile(this);
        }

        /**
         * The lean owner, beside the state. Plain, as ReentrantLock's: only
         * the owner writes itself there and clears it, so a thread reads itself exactly while it holds
         * the word lean; a spinner reads it as a hint (after a volatile read of the state each round).
         */
        Thread owner() {
            return owner;
        }

        void setOwner(Thread thread) {
            owner = thread;
        }

        long switchesOpaque() {
            return (long) SWITCHES.getOpaque(this);
        }

        void reenter() {
            if (holds == Integer.MAX_VALUE) {
                throw new Error("Maximum lock count exceeded");
            }
            holds++;
        }

        /**
         * A lean acquisition: {@code contended} when it spun or parked (the caller counts a park). The
         * first of a window starts the window's hold sample.
         */
        void ownedLean(Thread current, boolean contended) {
            setOwner(current);
            if (contended) {
                contendedInWindow++;
            }
            if (window++ == 0 && (windows & SAMPLE_EVERY_MASK) == 0) {
                startSample();
            }
        }

        private void startSample() {
            sampleAt = System.nanoTime();
            sampling = true;
        }

        /** Lean owner at its outermost release, when its acquisition began the window's hold sample: ends it. */
        void endSample() {
            sampledHold = (int) Math.min(Integer.MAX_VALUE, System.nanoTime() - sampleAt);
            sampling = false;
        }

        /**
         * Lean owner, before its release: how many waiters must be parked after it for the release to
         * yield the carrier to the one it wakes: one at a window's end, PARKED_TO_YIELD while most of
         * the window's acquisitions so far contended, else none ever.
         */
        int yieldAt() {
            if (window >= windowSize) {
                return 1;
            }
            return 100 * contendedInWindow >= YIELD_BUSY_PERCENT * window ? PARKED_TO_YIELD : Integer.MAX_VALUE;
        }

        /**
         * Lean owner: whether the sampled hold is as long as the spin bound (or none is sampled yet), so a
         * waiter's spin that ran out while the owner ran is how the lock is held, not a stall.
         */
        boolean holdsPastSpin() {
            return sampledHold >= thresholds.spinNanos();
        }

        /** Lean owner at release: whether heatDue has anything to decide (a window ended, or a waiter starves). */
        boolean heatChecked() {
            return window >= windowSize || (boolean) STARVING_WAITER.getOpaque(this);
        }

        /** Owner: the next lean acquisition starts a new window, its counts at 0. */
        private void startWindow() {
            window = 0;
            contendedInWindow = 0;
            parkedInWindow = 0;
            spunInWindow = 0;
        }

        /**
         * Lean owner after a spin that took the word: adds the nanos it spun to the window's (saturating).
         * A short spin (0) writes nothing: the field is off the hot run, and most contended acquisitions
         * of a striped store spin that short.
         */
        void addSpun(long nanos) {
            if (nanos > 0L) {
                spunInWindow = (int) Math.min(Integer.MAX_VALUE, spunInWindow + nanos);
            }
        }

        /**
         * Lean owner at a window's end: whether its spinners waited, on average, at least
         * LONG_SPIN_PERCENT of the sampled hold: each took the word only after most of a hold spent
         * spinning, so one carrier waits through every hold and nothing runs beside the section. Not
         * when the hold is not sampled yet.
         */
        private boolean spinsWholeHolds(int percent) {
            return sampledHold != Integer.MAX_VALUE
                    && 100L * spunInWindow >= (long) percent * contendedInWindow * sampledHold;
        }

        /**
         * Lean owner at a sampled window's end: whether its sampled hold (at most the spin bound, so a
         * stall does not fill it), taken as every acquisition's, fills saturatedBusyPercent of the
         * window's span while a quarter of its acquisitions contended. One clock read a sampled window.
         */
        private boolean busyWindow(Thresholds t) {
            if (t.saturatedBusyPercent() >= NEVER_BUSY
                    || sampling
                    || sampledHold == Integer.MAX_VALUE
                    || 4 * contendedInWindow < window) {
                return false;
            }
            long span = System.nanoTime() - sampleAt;
            return 100L * window * Math.min(sampledHold, t.spinNanos()) >= (long) t.saturatedBusyPercent() * span;
        }

        /** Lean owner at release: whether to turn queued now; resets the window at its end. */
        boolean heatDue() {
            Thresholds t = thresholds;
            boolean starving = (boolean) STARVING_WAITER.getOpaque(this);
            boolean hot = false;
            if (window >= t.window()) {
                if (leanWindows < Integer.MAX_VALUE) {
                    leanWindows++;
                }
                boolean sampled = (windows++ & SAMPLE_EVERY_MASK) == 0;
                boolean busy = sampled && busyWindow(t);
                hot = contendedInWindow >= t.saturatedToQueue()
                                && (sampledHold < t.shortHoldNanos() || spinsWholeHolds(LONG_SPIN_PERCENT))
                        || busy && busyBefore && spinsWholeHolds(BUSY_SPIN_PERCENT)
                        || parkedInWindow >= t.parkedToQueue();
                if (sampled) {
                    busyBefore = busy;
                }
                startWindow();
            }
            boolean due = starving || hot;
            if (starving && !hot && starvingTurn && (long) leanWindows * t.window() + window < STARVING_AGAIN) {
                hot = true; // starving again soon after a starving turn: waiters starve whenever it is lean
            }
            if (hot) {
                // Turned saturated again within less lean than the last probation: the next one doubles
                // (after a starving waiter's turn, the probation stays as it was).
                long lean = (long) leanWindows * t.window() + window;
                if (!starvingTurn) {
                    probation = lean < probation ? (int) Math.min(t.maxProbation(), 2L * probation) : t.probation();
                }
                turn = probation;
                starvingTurn = false;
                leanWindows = 0;
            } else if (starving) {
                // Only a waiter starves: a turn long enough to serve the queue once, extended to the
                // probation only when its last releases find the lock busy (coolDue); the probation
                // and the lean phase behind it stay as they are.
                turn = Math.min(probation, t.window());
                starvingTurn = true;
            }
            if (due) {
                STARVING_WAITER.setOpaque(this, false);
                startWindow();
                sampling = false;
                quietSince = 0L;
                SWITCHES.setOpaque(this, switches + 1);
            }
            return due;
        }

        /**
         * Queued owner at release: whether to turn lean now, when its probation of queued releases is
         * over (counted in {@code mode}, off this line), or when neither the queue lock nor the word
         * ({@code unmoved}) has had a waiter at any release for quietToLeanNanos. Writes the word only
         * at a switch, while nobody waits or just after, so a saturated lock's owners only read it.
         */
        boolean coolDue(QueuedMode mode, boolean unmoved) {
            boolean waited = unmoved || mode.lock.hasWaitingLeader();
            int releases = ++mode.releases;
            if (mode.measuredFrom != 0L) {
                mode.measure(waited, thresholds.spinNanos());
            }
            if (releases >= turn) {
                mode.releases = 0;
                if (mode.measuredFrom != 0L && mode.busy(thresholds.busyPercent())) {
                    // The lock is its threads' bottleneck: stay queued, for a longer probation (a
                    // starving waiter's turn becomes a probation).
                    if (starvingTurn) {
                        starvingTurn = false;
                    } else {
                        probation = (int) Math.min(thresholds.maxProbation(), 2L * probation);
                    }
                    turn = probation;
                    return false;
                }
                mode.stopMeasuring();
                return cooled();
            }
            if (releases == turn - Math.min(thresholds.window(), turn / 2)) {
                mode.measuredFrom = System.nanoTime() | 1L; // the probation's last releases are measured
            }
            if (waited) {
                if (quietSince != 0L) {
                    quietSince = 0L;
                }
                return false;
            }
            long quiet = thresholds.quietToLeanNanos();
            long now = System.nanoTime() | 1L; // never 0, which means "not quiet"
            if (quietSince == 0L) {
                quietSince = now;
                if (quiet > 0L) {
                    return false;
                }
            } else if (now - quietSince < quiet) {
                return false;
            }
            mode.releases = 0;
            mode.stopMeasuring();
            cooled();
            probation = thresholds.probation(); // it cooled by itself: the next saturation starts afresh
            leanWindows = Integer.MAX_VALUE;
            return true;
        }

        private boolean cooled() {
            quietSince = 0L;
            startWindow();
            leanWindows = 0;
            SWITCHES.setOpaque(this, switches + 1);
            return true;
        }
    }

    /**
     * The parked waiters of a word: an AQS whose state is unused; its acquire and release are the word's
     * (its tryAcquire takes the word, its tryRelease writes the word's state), so AQS's handshake holds:
     * a waiter publishes its node, then re-reads the word, then parks; a release writes the word's state
     * (volatile), then reads the head and wakes the first waiter. Apart from the word, so the word's
     * fields can have a lead of padding (AQS's own fields would come first) and an idle lock's release
     * only reads this object's head, a line every cache keeps.
     */
    @SuppressWarnings("serial") // never serialized
    static final class Parking extends AbstractQueuedSynchronizer {
        private static final long serialVersionUID = 1L;

        private final Word word;

        Parking(Word word) {
            this.word = word;
        }

        @Override
        protected boolean tryAcquire(int arg) {
            return word.tryTake();
        }

        @Override
        protected boolean tryRelease(int arg) {
            return word.giveUp(arg);
        }
    }

    /**
     * 60 bytes after the header (an int fills the gap after it, so no later field does): the word's
     * first written field is 64 bytes past the object's start, so no field of the object before it
     * on the heap shares that field's cache line.
     */
    abstract static class WordLead {
        int p00;
        long p01, p02, p03, p04, p05, p06;
    }

    /**
     * The fields every lean acquisition and release touches, after the lead: only ints, booleans and
     * the owner, 30 bytes (the JVM fills the gap before the owner with two of the cold booleans: a run
     * of 32, one 64-byte line or two adjacent ones, by where the object starts). The rest is in
     * {@link WordColdFields}, touched once a window or on the slow paths, and written only by this
     * lock's owners, then the word's final fields: at least 64 bytes, so no field of the next object
     * shares the last line of this run. Measured: with the owner and the counters
     * 84 to 96 bytes past the state, striped counting (4 stripes, a section per word) ran at
     * 0.85-0.89x synchronized; with them beside it, 0.89-0.94x.
     */
    abstract static class WordFields extends WordLead {
        volatile int state; // FREE, HELD or QUEUED: CAS to take, volatile write to release (STATE)
        Thread owner; // lean only: set by the owner after it took the word, cleared before it releases it
        int holds; // lean owner only: reentrant holds beyond the first (the queue lock counts a queued owner's)
        int window; // lean owner only: acquisitions in the current window
        int contendedInWindow; // lean owner only: acquisitions in the window that spun or parked
        int windows; // lean owner only: windows ended (wrapping); every SAMPLE_EVERY_MASK + 1st is sampled
        int parked; // atomic add by waiters: in when they first park on the word, out once they have the lock (or
        // gave up), also when they got it through the queue lock; read by owners at release
        boolean starvingWaiter; // opaque, set by a parked waiter past the starving bound; cleared by the owner that
        // switches
        boolean sampling; // lean owner only: this window's hold is being sampled (sampleAt is its start)
    }

    /** The word's fields that a lean handoff does not touch: once a window, or on a slow path. */
    abstract static class WordColdFields extends WordFields {
        int parkedInWindow; // lean owner only: acquisitions in the window that parked
        int spunInWindow; // lean owner only: nanos its contended acquisitions spun (as spinLean says), saturating
        int leanWindows; // lean owner only: whole windows since the lock last turned lean on probation (saturating)
        int probation; // owners at a switch: queued releases before a saturated queued mode tries lean again
        int turn; // owners at a switch: queued releases of this queued turn: the probation, or a starving waiter's turn
        boolean busyBefore; // lean owner only: the last sampled window was busy (busyWindow)
        boolean starvingTurn; // owners at a switch: this queued turn serves a starving waiter (short, unless busy)
        int sampledHold; // lean owner only: the hold of the last sample, in ns (saturating)
        long sampleAt; // lean owner only: nanoTime at a sampled window's first acquisition
        long acquiredAt; // owner only (timed probe): nanoTime of the outermost acquisition
        long waitNanos; // owner only (timed probe): its wait
        boolean waited; // owner only (timed probe): whether it waited
        long quietSince; // queued owner only: nanoTime of the first release of a quiet run, 0 when not quiet
        long switches; // opaque, by the owner that switches modes; read by modeSwitches()
    }
}
