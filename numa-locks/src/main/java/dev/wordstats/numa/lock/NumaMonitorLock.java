package dev.wordstats.numa.lock;

import dev.wordstats.numa.topology.NodeLocator;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * A lock for striped stores of virtual threads that is a word of its own until two threads meet on it,
 * then the JVM's own monitor while its waiters are served, and a {@link NumaHandoffLock} while a waiter
 * starves on a lock that stays saturated ({@link LockType#NUMA_MONITOR}). As a word, a critical section
 * runs between a CAS and a store: the cheapest uncontended call of the project's locks. Lean, a
 * critical section runs in {@code synchronized} on a private object: HotSpot's lock (a CAS on the
 * object's header, adaptive spinning while the owner runs, then a park that, since JDK 24, gives the
 * carrier back), which no lock written in Java has matched at short critical sections on many stripes.
 * Queued, a call takes the queue lock instead, whose per-node queues hand over to a running successor,
 * bound every wait and keep the lock on one NUMA node for a turn.
 *
 * <p>The {@link Guard} contract holds in every mode: mutual exclusion with a happens-before edge from
 * each critical section to the next, results and exceptions reach their callers unchanged, a call from
 * inside a critical section runs inline, and waiting is not interruptible. Not a
 * {@link java.util.concurrent.locks.Lock}: a monitor cannot be entered in one method and left in
 * another, so there is no {@code lock()}/{@code unlock()} pair. Not fair while lean (the monitor lets
 * an arriving thread overtake a parked one), but when a waiter that about {@link #STARVING_OVERTAKES}
 * acquisitions overtook gets in while the lock is held most of the time, the lock turns queued, where
 * waits are bounded, for a probation that doubles while the lock stays busy.
 */
public final class NumaMonitorLock implements Guard {

    /*
     * Overview
     *
     * Why a monitor. On a striped store (short critical sections, many stripes, work outside the
     * lock) most acquisitions are uncontended or meet an owner that runs on the other carrier for
     * tens of nanoseconds: the best lock there spins briefly while the owner runs and parks
     * otherwise. HotSpot's monitor does that, with its fast path compiled into the caller and its
     * spin inside the VM; the Java locks of this project that do the same (NumaAdaptiveLock's lean
     * word, ReentrantLock) counted at 0.5-0.9x of it (JOURNAL 2026-11-26 04:50-06:45: the gap is
     * a Java word's release and fields, not its rules). A monitor's weakness is the other regime:
     * on a saturated lock an arriving or spinning thread takes it again and again while the parked
     * ones wait (Jain 0.03, longest wait 68-111 ms on one hot lock). So this lock is the monitor
     * until that happens, and then a queue lock (Fissile locks, Dice & Kogan 2020: a test-and-set
     * lock with a queue lock for its waiters; Go's sync.Mutex: normal mode, starvation mode after a
     * waiter waited too long; GLK, Antic et al. 2016: per-lock adaptation).
     *
     * Why a word first. A lock no two threads ever meet on (a stripe only one thread uses, a lock kept
     * for the rare clash) pays only its uncontended call, and there the monitor costs 5.5-5.8 ns and
     * this lock as a monitor with its sampling 8.5-8.7, against 4.5-4.7 for ReentrantLock (JOURNAL
     * 2026-11-28 05:40). A word taken with a CAS and released with a store costs less than either
     * (0.86-0.97x ReentrantLock in the same runs, against 1.3-2.1x as a monitor; JOURNAL 2026-11-29). But
     * a Java word loses to the monitor once threads meet on it (above), so the word lasts only until
     * the first meeting: then it is retired for good, as HotSpot once revoked a biased lock, and the
     * lock is the monitor and the queue from there on. A striped store's stripes all meet in their
     * first milliseconds; what stays a word is a lock that is never contended.
     *
     * Parts
     *  - state: what every call reads, mode (WORD, LEAN or QUEUED), owner (the word) and epoch
     *    (a sample of the lean acquisitions: one in EPOCH_SAMPLE + 1, picked at random by the
     *    caller's own thread before it enters the monitor, adds one, so no other acquisition writes
     *    anything for it), and the
     *    sampled window and the watch beside them (written by the same sampled holders, and by the
     *    watched thread when it comes back), in a padded object of its own: its line is written only at
     *    a switch, a sampled acquisition and the watched thread's return, never by the monitor's header
     *    (JOURNAL 2026-11-27 02:05), and a sample writes that one line only.
     *  - monitor: a private object, never exposed; its header is the lean lock; its fields are the
     *    switch count and the queue. No lean acquisition writes either: once the monitor is
     *    inflated, its acquisitions only read the header (the lock word is the ObjectMonitor's), and
     *    a write on the header's line at each one, a count that picked the samples, moved that line
     *    between carriers at every handoff, 0.84 of synchronized on striped counting (JOURNAL
     *    2026-11-27 09:55).
     *  - marks: with a probe only, what the probed holder writes at each acquisition (busy, runner), in
     *    an object of its own, as SynchronizedGuard keeps them beside its monitor rather than in it:
     *    on the monitor they were two writes a call on the header's line, the service's configuration
     *    (JOURNAL 2026-11-27 23:25).
     *  - queue: a QueuedMode (the queue lock and what only its owners write), made at the first
     *    switch to queued, off the monitor's line; a store whose stripes never starve never makes one.
     *
     * Word call (mode WORD): unless retiring, CAS owner from null to the caller; run; release the word
     * (a store) and, if retiring is set, unpark the retiring caller. If the CAS fails: a call inside the
     * caller's own word section (owner is the caller) runs inline; any other retires the word or waits
     * for its retirement, then makes the call the mode says. The first caller that finds the word held
     * (CAS retiring from false to true) retires it: outside the monitor, it waits until the word is free
     * (RETIRE_SPINS spins, then parks from 1 us doubling to RETIRE_PARK_MAX_NANOS, woken by the holder's
     * release), CASes it from null to RETIRED, then in the monitor writes mode LEAN (release) and
     * notifies all. Every other caller waits in the monitor (Object.wait) until the mode is not WORD.
     * Word callers that read retiring no longer take the word, so a stream of them cannot keep it from
     * the retiring caller. Word calls are not sampled: no caller starves on the word, since the first
     * that finds it held retires it.
     *    Why the retiring caller waits outside the monitor: holding the monitor while it waited (the
     *    others blocked on it meanwhile), the lock counted at 0.97 of the same lock without a word
     *    (median of 28 paired rows, 21 lower) and a new hot lock with a yield inside lost its fairness
     *    (Jain 0.05-0.23 against 0.30-0.63); waiting outside it, no measurable difference (JOURNAL
     *    2026-11-29). Why the mode is one field: call() reads it once and branches once, so the lean
     *    call's path is what it was before the word.
     *
     * Lean call: read epoch; synchronized (monitor) { if queued (read inside), leave and make a
     * queued call; else run; at the end: if this call was sampled, add its hold to the window and
     * one to the epoch; then, if the epoch had passed the value read at arrival by STARVING_EPOCHS
     * (this caller waited while about STARVING_OVERTAKES others took the lock) and the last two
     * sampled windows were saturated, turn queued }. A window is WINDOW_SAMPLES sampled holds;
     * saturated when, each standing for EPOCH_SAMPLE + 1 acquisitions, they fill SATURATED_PERCENT
     * of its span: the lock is its threads' bottleneck. Three clock reads per sampled acquisition,
     * one at the watched thread's return, none otherwise; a call that is neither takes a path of its
     * own, without the watch (callLean against callLeanWatched, and the two branches of callProbed's
     * lean call: 8.3-8.6 ns an uncontended call, 12.9 probed, against 9.3-10.3 and 14.4-15.4 when all
     * took one path, and 8.0-8.4 and 11.4-11.9 before the watch; JOURNAL 2026-11-28 01:45, 02:12).
     *    Work outside the lock. A sampled holder becomes the watched thread; when it comes back (it
     *    reads itself in the watch at arrival, one read of the line every call reads anyway), it votes:
     *    did it spend OUTSIDE_PERCENT of its sampled hold or more between leaving the monitor and
     *    arriving again? The votes saturate at +-OUTSIDE_VOTES. Unless they are negative (the threads
     *    come straight back: a hot lock), the lock is taken as a striped store's, its threads working
     *    outside it, and a starving caller turns it queued only after OUTSIDE_PATIENCE times the
     *    overtakes, for a brief probation (PROBATION / BRIEF_PROBATION_DIVISOR releases, ending lean
     *    however busy). Why: queued, each acquisition is a handoff to a mostly parked
     *    virtual thread (64 threads, 2 carriers), a wake-up and a mount while the lock waits; lean, the
     *    two running threads pass the monitor between them and each does its outside work while the
     *    other holds it. On one stripe with a line's words split outside, queued counted at 0.75-0.88x
     *    lean; on one hot lock with all the work inside, queued is the faster (JOURNAL 2026-11-27 13:24,
     *    20:02). Measured gap over hold (JOURNAL 2026-11-28 00:57): one stripe, a line a section,
     *    mostly 0.5-1.5; one hot lock at ~0.2 us mostly 0.1-0.2 (a fifth 0.5-1), ~2 us and with a yield
     *    under 0.2. Every wait stays bounded, by more overtakes. A lock with no votes (new, or its
     *    threads never come back: a request's touches a stripe once) is a striped store's: patient. A
     *    first switch before the votes came in made a stripe queued for its busy, doubling probations
     *    (JOURNAL 2026-11-28 01:08).
     *    Not starvation alone: on 4 stripes of Zipf counting a woken waiter is overtaken that often
     *    about 1,800 times a fork while it waits for a carrier (64 CPU-bound virtual threads, 2
     *    carriers), not for the lock; those stripes' windows are mostly 10-40% held (JOURNAL
     *    2026-11-27 01:10), and queued there they count at half the speed.
     *
     * run(Runnable) takes the same paths as call(Supplier), with the section itself: Guard's own run
     * would make a Supplier around it, 16 bytes a call (JOURNAL 2026-11-27 04:45).
     *
     * Queued call: if this thread holds the queue lock or the monitor already, run inline (a
     * reentrant call; a thread inside a lean section must not wait for the queue lock). Else take
     * the queue lock; if the lock turned lean meanwhile, release it and make a lean call; else run
     * (the first queued owner after a switch first passes through the monitor, see below); then the
     * probation's bookkeeping (below), release the queue lock, and while the switch is recent
     * (DRAIN_RELEASES), a virtual thread yields its carrier.
     *
     * Mode switches
     *  - lean -> queued: by the monitor's holder at the end of a starving caller's section (above).
     *    It makes the queue lock if there is none yet, starts a probation and sets the barrier, then
     *    writes queued (release). Later arrivals go to the queue lock; callers that waited in the
     *    monitor since before the switch get in one by one, read queued, leave at once (waking the
     *    next) and queue too: the drain, which the releasing queued owners' yields give carriers to.
     *  - queued -> lean: by a queued owner at the end of a probation whose measured releases (the
     *    last MEASURED_RELEASES, at most half) held the lock less than BUSY_PERCENT of their span;
     *    a busy one starts a probation twice as long (at most MAX_PROBATION). It writes queued false
     *    (release) after its section, while it holds the queue lock; a waiter that then gets the
     *    queue lock reads it, releases the queue lock and makes a lean call. A switch to queued
     *    within fewer lean acquisitions than the last probation doubles it; a later one starts from
     *    PROBATION.
     *
     * Invariants
     *  - Mutual exclusion with the word. A word section runs after the caller's CAS from null to itself
     *    and before its store of null. A lean or queued section runs only after its caller read a mode
     *    other than WORD (acquire), which the retiring caller wrote after its CAS from null to RETIRED:
     *    after the last word section's release (its store, read by that CAS), and no word section begins
     *    after it (a CAS from null fails from then on). The happens-before edges are the word's and the
     *    mode's release and acquire.
     *    // checked by NumaMonitorLockTest.aWordTurnsLeanWhenTwoThreadsMeetOnItAndCountsEveryCall
     *    // checked by NumaMonitorLockWordTests (jcstress: a retirement racing word, lean and nested calls)
     *  - A call inside a word section runs inline, also while another thread retires the word (a wait
     *    for the retirement would wait for its own section to end).
     *    // checked by NumaMonitorLockTest.aCallInsideAWordSectionRunsInlineWhileAnotherThreadRetiresTheWord
     *  - Once a caller is retiring the word, no call that reads retiring takes the word; a caller that read
     *    it before may take it once more, so the retiring caller waits for at most one section a thread.
     *    No wake-up is lost: the waiters read the mode in the monitor, where the retiring caller writes it
     *    and notifies them.
     *    // checked by NumaMonitorLockTest.noCallTakesTheWordOnceACallerIsRetiringIt
     *  - Mutual exclusion. A lean section runs inside the monitor after reading queued false there;
     *    a queued one holds the queue lock after reading queued true. Only the monitor's holder
     *    writes queued true, only the queue lock's holder writes it false, each after its section.
     *    So a lean section never meets another (the monitor), nor a queued one: queued turns true
     *    only from inside a lean section (a call inside it, or its end), and the first queued owner
     *    after that passes through the monitor before its section (the barrier), so it starts after
     *    that lean section ends and every later queued owner after it (the queue lock); queued turns
     *    false only after the last queued section, and any caller that enters the monitor after
     *    that reads false. The happens-before edges are the monitor's, the queue lock's, and
     *    queued's release and acquire.
     *    // checked by GuardContractTest.mutualExclusionKeepsNonAtomicCounterExact
     *    // checked by NumaMonitorLockTest.mutualExclusionAcrossModeSwitches
     *    // checked by NumaMonitorLockTests (jcstress: switches racing lean, queued and nested calls)
     *  - Reentrant in both modes, and no deadlock across a switch: a call from inside a critical
     *    section runs inline, found by the monitor's holder (lean) or the queue lock's (queued).
     *    // checked by GuardContractTest.reentrantCallRunsInlineOnTheSameThread
     *    // checked by NumaMonitorLockTest.aCallInsideALeanSectionRunsInlineWhenTheLockTurnsQueued
     *  - A waiter that about STARVING_OVERTAKES acquisitions overtook turns a saturated lock queued,
     *    where the queue lock bounds every wait (its reservation); a lock that is not saturated
     *    stays lean.
     *    // checked by NumaMonitorLockTest.aStarvingWaiterTurnsTheLockQueued
     *    // checked by NumaMonitorLockTest.anUnsampledCallThatSawTheEpochPassItsBoundTurnsASaturatedLockQueued
     *    // checked by NumaMonitorLockTest.aStarvingWaiterKeepsALockThatIsNotSaturatedLean
     *  - While its threads work outside it (the votes), a starving waiter turns a saturated lock queued
     *    only after OUTSIDE_PATIENCE times the overtakes, and that probation is brief and ends lean.
     *    // checked by NumaMonitorLockTest.returnsAfterWorkOutsideTheLockVoteOutsideAndStraightBackInside
     *    // checked by NumaMonitorLockTest.workOutsideTheLockTakesMoreOvertakesToTurnQueuedForABriefProbation
     *  - Queued to lean after a probation that was not busy; a busy one doubles; a switch back soon
     *    after doubles it too, a later one starts afresh.
     *    // checked by NumaMonitorLockTest.aQueuedLockTurnsLeanAfterAProbationThatWasNotBusy
     *    // checked by NumaMonitorLockTest.aBusyProbationDoublesAndAnIdleOneTurnsLean
     *    // checked by NumaMonitorLockTest.aBusyQueuedLockStaysQueuedForADoubledProbation
     *  - A virtual thread never spins unboundedly: the monitor's spin is HotSpot's, bounded and
     *    adaptive; the queue lock spins only while its owner runs, and at most a bound; a retiring
     *    caller spins RETIRE_SPINS times and then parks, and the callers behind it wait in Object.wait.
     *
     * Accepted races
     *  - epoch is read before the monitor is entered, so the overtakes a caller counts include those
     *    while its carrier was stopped (the host took its CPU); the saturation test keeps such a
     *    stripe lean unless it is its threads' bottleneck anyway.
     *  - The watched thread stamps when it left the monitor after leaving it (a monitor's release that
     *    wakes a waiter is not work outside): a sampled holder that got in meanwhile may have set the
     *    watch, and then its vote uses this stamp, one vote in error. The watch is read at arrival
     *    without the monitor; the vote is cast inside it, only if the watch still names the caller.
     *  - A caller that read "lean" may enter the monitor after the switch (it then leaves and queues),
     *    and one that read "queued" may take the queue lock after the switch back (it then releases it
     *    and enters the monitor).
     *
     * Known limit (JOURNAL 2026-11-27 01:40): a brand-new lock met by a burst of CPU-bound virtual
     * threads turns queued only once a starved waiter gets in, and by then the two threads that
     * kept the carriers have done most of their work: fair on a lock that lives on (Jain 0.97 on
     * one hot lock kept through the trial), as unfair as a monitor on one made for each burst
     * (0.03). The same holds for any monitor-led lock (2026-11-26 14:50): the monitor's waiters
     * cannot be seen until they get in.
     *
     * Probe (optional; none: the lean call is the bare synchronized block and the sampled epoch):
     * as SynchronizedGuard, a call waited when a critical section was running as it arrived (the
     * marks' busy, read at arrival, written by the holder); modeSwitched by the switching
     * owner; the queue lock itself reports nothing. The probed call runs its section in its own frame
     * in both modes, so it allocates nothing; a call inside a probed section runs inline at once (the
     * holder's runner is itself), in either mode.
     *
     * Probed, the word path is the same, its section in the probed frame (the runner mark finds a call
     * inside it, as in the other modes). The retirement is not a mode switch: modeSwitches() and the
     * probe count lean-queued switches only, and every stripe of a store retires its word once.
     *
     * Memory: 256 bytes, the guard, its padded state and its monitor (NumaMonitorLockTest's layout
     * test), and with a probe its marks (24 more); the queue lock, hundreds of bytes, only for a
     * lock that once starved a waiter while saturated.
     */

    /** Lean: one acquisition in EPOCH_SAMPLE + 1 (a power of two) is sampled: the epoch, and its hold. */
    static final int EPOCH_SAMPLE = 63;

    /**
     * Lean: a caller that sees the epoch pass the value it read at arrival by this much is starving:
     * about STARVING_OVERTAKES acquisitions took the lock while it waited.
     */
    static final int STARVING_EPOCHS = 32;

    /** About how many acquisitions overtook a starving waiter. */
    public static final int STARVING_OVERTAKES = STARVING_EPOCHS * (EPOCH_SAMPLE + 1);

    /** Lean: the sampled holds of this many sampled acquisitions make one window of the busy share. */
    static final int WINDOW_SAMPLES = 16;

    /**
     * Lean: a window whose sampled holds, each standing for EPOCH_SAMPLE + 1 acquisitions, filled this share
     * (percent) of its span is saturated; a starving caller turns the lock queued only after two saturated
     * windows in a row. Measured (JOURNAL 2026-11-27 01:10): a stripe of 4 counted a word at a time, its
     * windows mostly 10-40%; one hot lock with all the work inside, mostly 50-110%.
     */
    static final int SATURATED_PERCENT = 75;

    /**
     * Lean: a watched thread (the last sampled holder) that comes back after work outside the lock of at least
     * this share (percent) of its sampled hold votes that the lock's threads work outside it.
     */
    static final int OUTSIDE_PERCENT = 25;

    /**
     * Lean: and at least this long: a return within it is straight back, whatever the hold (one hot lock at ~0.2 us:
     * a fifth of its returns take half the hold or more, 100-200 ns, JOURNAL 2026-11-28 01:14).
     */
    static final long OUTSIDE_MIN_NANOS = 250L;

    /** Lean: the votes saturate at plus or minus this many. */
    static final int OUTSIDE_VOTES = 8;

    /** Lean, while the votes say the threads work outside the lock: starving takes this many times more overtakes. */
    static final int OUTSIDE_PATIENCE = 8;

    /** Queued, after a switch while the threads work outside: a probation of the first over this, never doubled. */
    static final int BRIEF_PROBATION_DIVISOR = 4;

    /** Queued: the first probation, in queued releases; it doubles while the lock stays busy. */
    static final int PROBATION = 4096;

    /** The longest probation: about a second of queued acquisitions of a microsecond. */
    static final int MAX_PROBATION = 1 << 20;

    /**
     * Queued: a virtual thread yields its carrier after each of the first this many queued releases since the
     * switch, so callers that waited in the monitor since before it (woken one by one by its releases, each on
     * the releasing carrier) get a carrier, leave the monitor and queue, while the queue lock's owners would
     * otherwise keep both carriers.
     */
    static final int DRAIN_RELEASES = 128;

    /** Queued: at most this many of a probation's last releases are measured. */
    static final int MEASURED_RELEASES = 1024;

    /**
     * Queued: a probation's measured releases held the lock this share (percent) of their span: busy. Queued,
     * a handoff to a parked or descheduled successor leaves the lock idle between holds, so a lock that is its
     * threads' bottleneck fills less of the span than lean. Measured (JOURNAL 2026-11-27 04:00): one hot lock
     * with all the work inside, 30-75% once its burst's threads run; a counting stripe, 0-3% (64 stripes),
     * 4-16% (4), 5-29% (1). At 50 the hot lock turned lean after about half its probations and counted at
     * the monitor's speed between switches.
     */
    static final int BUSY_PERCENT = 25;

    /** A measured hold counts at most this long, so one stretched by a stall does not fill a window. */
    static final long HOLD_CAP_NANOS = 10_000L;

    /** Word: a caller that retires the word spins this many times for its holder's release, then parks. */
    static final int RETIRE_SPINS = 64;

    /** Word: the longest park of a caller that waits for the word's holder (the parks double from 1 us). */
    static final long RETIRE_PARK_MAX_NANOS = 1_000_000L;

    /** enterQueued: the caller holds the queue lock; its section runs, then exitQueued. */
    private static final int OWNED = 0;

    /** enterQueued: a call from inside the caller's own section; it runs inline, with nothing to release. */
    private static final int INLINE = 1;

    /** enterQueued: the lock turned lean while the caller queued; it holds nothing and makes a lean call. */
    private static final int TURNED_LEAN = 2;

    /** The mode: the monitor (the lean lock). */
    static final byte LEAN = 0;

    /** The mode: the queue lock. */
    static final byte QUEUED = 1;

    /** The mode: the word, until two threads meet on it. */
    static final byte WORD = 2;

    /** The word's value once two threads met on it: no caller takes the word again. */
    static final Object RETIRED = new Object();

    private final State state = new State();
    private final Monitor monitor = new Monitor();
    private final NodeLocator nodes;
    private final Duration reserveAfter; // the queue lock's reservation threshold
    private final int carriers; // the queue lock's carrier count
    private final LockProbe probe; // null without one
    private final Marks marks; // with a probe only: what the probed holder writes, off the monitor's line
    private final boolean hearsFast; // probe != null && probe.hearsFastPath()
    private final boolean timed; // probe != null && probe.timed()
    private final int sampleMask; // read by every lean call: thresholds.sampleMask()
    private final int starvingEpochs; // read by every lean call: thresholds.starvingEpochs()
    private final int outsidePatience; // read by every lean call: thresholds.outsidePatience()
    private final boolean patient; // read by every lean call: thresholds.patient()
    private final Thresholds thresholds; // the defaults, or a test's
    private volatile Thread retirer; // the caller retiring the word, while it waits for the word; read by its holder

    /** A lock whose queued mode is a {@link NumaHandoffLock} over the context's nodes; the defaults, no probe. */
    public NumaMonitorLock(LockContext context) {
        this(context, NumaMcsLock.DEFAULT_RESERVE_AFTER, LockProbe.NONE);
    }

    /**
     * A lock whose queued mode is a {@link NumaHandoffLock} over the context's nodes with the reservation
     * threshold {@code reserveAfter}, reporting to {@code probe} ({@link LockProbe#NONE} for none): its
     * acquisitions in both modes and its mode switches.
     */
    public NumaMonitorLock(LockContext context, Duration reserveAfter, LockProbe probe) {
        this(context, reserveAfter, probe, Thresholds.DEFAULTS);
    }

    /** For tests that need switches at every chance (jcstress): {@code thresholds} instead of the defaults. */
    NumaMonitorLock(LockContext context, Duration reserveAfter, LockProbe probe, Thresholds thresholds) {
        Objects.requireNonNull(context, "context");
        this.thresholds = Objects.requireNonNull(thresholds, "thresholds");
        this.sampleMask = thresholds.sampleMask();
        this.starvingEpochs = thresholds.starvingEpochs();
        this.outsidePatience = thresholds.outsidePatience();
        this.patient = thresholds.patient();
        this.nodes = context.nodes();
        this.reserveAfter = Objects.requireNonNull(reserveAfter, "reserveAfter");
        this.carriers = context.carriers();
        this.probe = LockProbe.orNull(Objects.requireNonNull(probe, "probe"));
        this.hearsFast = this.probe != null && this.probe.hearsFastPath();
        this.timed = this.probe != null && this.probe.timed();
        this.marks = this.probe != null ? new Marks() : null;
        if (thresholds.word()) {
            state.mode = WORD;
        } else {
            state.owner = RETIRED; // lean from the start (a test's switches must not wait for a first meeting)
        }
    }

    @Override
    public <T> T call(Supplier<T> criticalSection) {
        if (probe != null) {
            return callProbed(criticalSection);
        }
        State st = state;
        // One read and one branch to the lean call, as before the word: this method is inlined into hot callers.
        return st.modeAcquire() == LEAN ? callLean(monitor, criticalSection) : callNotLean(st, criticalSection);
    }

    /**
     * A call that read the mode queued or word: the mode read again, which may be lean by now (a word retired
     * since, when there may be no queue lock yet).
     */
    private <T> T callNotLean(State st, Supplier<T> criticalSection) {
        byte mode = st.modeAcquire();
        if (mode == WORD) {
            return callWord(st, criticalSection);
        }
        return mode == QUEUED ? callQueued(monitor, criticalSection) : callLean(monitor, criticalSection);
    }

    /**
     * As {@link #call}, with the section itself in the synchronized block or under the queue lock: no
     * Supplier is made around it per call (Guard's own run makes one, 16 bytes a call on a hot lock).
     */
    @Override
    public void run(Runnable criticalSection) {
        if (probe != null) {
            Guard.super.run(criticalSection); // the probed call wraps the section anyway
        } else if (state.modeAcquire() != LEAN) {
            runNotLean(state, criticalSection);
        } else {
            runLean(monitor, criticalSection);
        }
    }

    /** As callNotLean, for a Runnable. */
    private void runNotLean(State st, Runnable criticalSection) {
        byte mode = st.modeAcquire();
        if (mode == WORD) {
            runWord(st, criticalSection);
        } else if (mode == QUEUED) {
            runQueued(monitor, criticalSection);
        } else {
            runLean(monitor, criticalSection);
        }
    }

    /**
     * A call while the lock is a word: the word taken with a CAS, the section, the word released with a
     * store. A call that finds the word held by another thread (or being retired) retires it or waits for its
     * retirement, then makes the call the mode says; a call inside this thread's own word section runs inline.
     */
    private <T> T callWord(State st, Supplier<T> criticalSection) {
        Thread me = Thread.currentThread();
        if (!st.retiringOpaque() && st.casOwner(null, me)) {
            try {
                return criticalSection.get();
            } finally {
                releaseWord(st);
            }
        }
        if (st.ownerAcquire() == me) {
            return criticalSection.get(); // a call inside this thread's word section
        }
        retireWord(st);
        return call(criticalSection);
    }

    /** As callWord, for a Runnable. */
    private void runWord(State st, Runnable criticalSection) {
        Thread me = Thread.currentThread();
        if (!st.retiringOpaque() && st.casOwner(null, me)) {
            try {
                criticalSection.run();
                return;
            } finally {
                releaseWord(st);
            }
        }
        if (st.ownerAcquire() == me) {
            criticalSection.run();
        } else {
            retireWord(st);
            run(criticalSection);
        }
    }

    /**
     * The word's holder at its section's end: the word released, and the retiring caller woken if there is one.
     * A holder whose read of retiring passes its store (store-load, not ordered here) may miss it; the retiring
     * caller then reads the word free within its spins or at the end of a timed park.
     */
    private void releaseWord(State st) {
        st.setOwnerRelease(null);
        if (st.retiringOpaque()) {
            Thread waiting = retirer;
            if (waiting != null) {
                LockSupport.unpark(waiting);
            }
        }
    }

    /**
     * Two threads met on the word: the first to get here retires it (outside the monitor: the lock's waiters
     * are not blocked behind a caller that waits for the word) and turns the lock lean; the others wait in the
     * monitor until it is lean. Not interruptible, as every wait of a guard: an interrupt is kept for the
     * caller.
     */
    private void retireWord(State st) {
        boolean interrupted = false;
        if (st.casRetiring()) { // this caller retires the word; the monitor stays free meanwhile
            retirer = Thread.currentThread(); // a holder that reads retiring and then this wakes it
            for (int tries = 0; !(st.ownerAcquire() == null && st.casOwner(null, RETIRED)); tries++) {
                if (tries < RETIRE_SPINS) {
                    Thread.onSpinWait();
                } else {
                    LockSupport.parkNanos(
                            Math.min(RETIRE_PARK_MAX_NANOS, 1_000L << Math.min(tries - RETIRE_SPINS, 20)));
                    interrupted |= Thread.interrupted(); // else a set flag would make every park return at once
                }
            }
            retirer = null;
            synchronized (monitor) {
                st.setModeRelease(LEAN); // after the word: a caller that reads lean finds it retired
                monitor.notifyAll();
            }
        } else { // another caller retires it: wait in the monitor until the lock is lean
            synchronized (monitor) {
                while (st.modeAcquire() == WORD) {
                    try {
                        monitor.wait();
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private <T> T callLean(Monitor m, Supplier<T> criticalSection) {
        State st = state;
        boolean sampled = picked(sampleMask); // before the monitor: nothing of it in the hold
        if (sampled || st.watchOpaque() == Thread.currentThread()) {
            return callLeanWatched(m, criticalSection, sampled); // about one call in EPOCH_SAMPLE + 1
        }
        int seen = st.epochAcquire(); // acquire: not moved into the synchronized block, past the wait it measures
        synchronized (m) {
            if (!st.queuedAcquire()) { // turned lean by a queued owner, outside the monitor: acquire
                try {
                    return criticalSection.get();
                } finally {
                    leanReleasing(m, st, seen);
                }
            }
        }
        // It waited in the monitor while the lock turned queued: it leaves the monitor (whose release wakes
        // the next one waiting there) and queues with the rest.
        return callQueued(m, criticalSection);
    }

    /**
     * As callLean, for a call that is sampled or made by the watched thread: its clock reads, its vote and the
     * watch, kept off the other calls' path (in callLean they cost an uncontended call 1-2 ns).
     */
    private <T> T callLeanWatched(Monitor m, Supplier<T> criticalSection, boolean sampled) {
        State st = state;
        int seen = st.epochAcquire();
        Thread me = Thread.currentThread();
        long arrivedAt = st.watchOpaque() == me ? System.nanoTime() : 0L; // the watched thread back: its gap
        T result = null;
        boolean ran = false;
        synchronized (m) {
            if (!st.queuedAcquire()) {
                long acquiredAt = sampled ? System.nanoTime() : 0L;
                try {
                    result = criticalSection.get();
                    ran = true;
                } finally {
                    leanReleasing(m, st, seen, acquiredAt, sampled, me, arrivedAt);
                }
            }
        }
        if (ran) {
            if (sampled) {
                st.left(); // the watched thread now, out of the monitor
            }
            return result;
        }
        return callQueued(m, criticalSection);
    }

    /** As callLean, for a Runnable. */
    private void runLean(Monitor m, Runnable criticalSection) {
        State st = state;
        boolean sampled = picked(sampleMask);
        if (sampled || st.watchOpaque() == Thread.currentThread()) {
            runLeanWatched(m, criticalSection, sampled);
            return;
        }
        int seen = st.epochAcquire();
        synchronized (m) {
            if (!st.queuedAcquire()) {
                try {
                    criticalSection.run();
                    return;
                } finally {
                    leanReleasing(m, st, seen);
                }
            }
        }
        runQueued(m, criticalSection);
    }

    /** As callLeanWatched, for a Runnable. */
    private void runLeanWatched(Monitor m, Runnable criticalSection, boolean sampled) {
        State st = state;
        int seen = st.epochAcquire();
        Thread me = Thread.currentThread();
        long arrivedAt = st.watchOpaque() == me ? System.nanoTime() : 0L;
        boolean ran = false;
        synchronized (m) {
            if (!st.queuedAcquire()) {
                long acquiredAt = sampled ? System.nanoTime() : 0L;
                try {
                    criticalSection.run();
                    ran = true;
                } finally {
                    leanReleasing(m, st, seen, acquiredAt, sampled, me, arrivedAt);
                }
            }
        }
        if (!ran) {
            runQueued(m, criticalSection);
        } else if (sampled) {
            st.left();
        }
    }

    /**
     * The monitor's holder at the end of a lean section that was neither sampled nor the watched thread's (the
     * epoch was {@code seen} at its arrival): the switch to queued if this caller starved while the lock stayed
     * saturated.
     */
    private void leanReleasing(Monitor m, State st, int seen) {
        boolean outside = patient && st.outside();
        if (st.epoch - seen >= starvingBound(outside) && st.saturatedWindows >= 2) {
            turnQueued(m, outside);
        }
    }

    /** The epochs a lean caller waits through before it is starving: more while the threads work outside. */
    private int starvingBound(boolean outside) {
        return outside ? starvingEpochs * outsidePatience : starvingEpochs;
    }

    /**
     * As leanReleasing, for a call that was sampled ({@code sampled}, acquired at {@code acquiredAt}) or the
     * watched thread's ({@code me}, arrived at {@code arrivedAt}, else 0): its vote, its sample, then the switch
     * to queued if this caller starved while the lock stayed saturated.
     */
    private void leanReleasing(
            Monitor m, State st, int seen, long acquiredAt, boolean sampled, Thread me, long arrivedAt) {
        boolean outside = patient && st.outside();
        boolean starved = st.epoch - seen >= starvingBound(outside); // before this call's own sample
        if (arrivedAt != 0L && st.watch == me) {
            st.cameBack(arrivedAt);
        }
        if (sampled) {
            st.sampled(acquiredAt, sampleMask + 1, thresholds, me);
        }
        if (starved && st.saturatedWindows >= 2) {
            turnQueued(m, outside);
        }
    }

    /**
     * Whether this lean call is sampled: one in {@code sampleMask + 1}, picked by the caller's own random
     * (its thread's {@link ThreadLocalRandom} seed), before it enters the monitor. Nothing shared is written
     * for it: a count in the monitor object (the pick before) made every lean acquisition write the
     * monitor's line, which an inflated monitor's acquisitions otherwise only read (the lock word is then
     * the ObjectMonitor's), one more line to move between carriers at each handoff: 0.87 of synchronized
     * on striped counting with rounds in one JVM, 0.94 with this pick; the draw costs about 5 ns a call
     * where nothing contends (JOURNAL 2026-11-27 09:55-11:00).
     */
    private static boolean picked(int sampleMask) {
        return (ThreadLocalRandom.current().nextInt() & sampleMask) == 0;
    }

    private <T> T callQueued(Monitor m, Supplier<T> criticalSection) {
        QueuedMode mode = m.modeAcquire();
        int entry = enterQueued(m, mode);
        if (entry == INLINE) {
            return criticalSection.get();
        }
        if (entry == TURNED_LEAN) {
            return callLean(m, criticalSection);
        }
        long acquiredAt = mode.measuring() ? System.nanoTime() : 0L;
        try {
            return criticalSection.get();
        } finally {
            exitQueued(m, mode, acquiredAt);
        }
    }

    /** As callQueued, for a Runnable. */
    private void runQueued(Monitor m, Runnable criticalSection) {
        QueuedMode mode = m.modeAcquire();
        int entry = enterQueued(m, mode);
        if (entry == INLINE) {
            criticalSection.run();
        } else if (entry == TURNED_LEAN) {
            runLean(m, criticalSection);
        } else {
            long acquiredAt = mode.measuring() ? System.nanoTime() : 0L;
            try {
                criticalSection.run();
            } finally {
                exitQueued(m, mode, acquiredAt);
            }
        }
    }

    /**
     * A queued call's entry: OWNED, INLINE or TURNED_LEAN. The first queued owner after a switch passes
     * through the monitor once before its section (the barrier).
     */
    private int enterQueued(Monitor m, QueuedMode mode) {
        NumaHandoffLock q = mode.lock;
        if (q.isHeldByCurrentThread() || mode.switcher == Thread.currentThread() && Thread.holdsLock(m)) {
            // Reentrant: the caller holds the queue lock, or holds the monitor in a lean section that went
            // on after a call inside it turned the lock queued (only the thread that switched can).
            return INLINE;
        }
        q.lock();
        if (!state.queuedAcquire()) { // turned lean while this thread queued
            q.unlock();
            return TURNED_LEAN;
        }
        if (mode.barrier) { // the first queued owner since the switch: after the lean owner that switched
            mode.barrier = false;
            synchronized (m) {
                // nothing: the lean owner that switched (from a call inside its section) has left
            }
        }
        return OWNED;
    }

    /**
     * The queue lock's owner after its section (acquired at {@code acquiredAt} if measured, else 0): the
     * probation's bookkeeping, the switch to lean at the end of one that was not busy, the release, and while
     * the switch to queued is recent a virtual thread's yield.
     */
    private void exitQueued(Monitor m, QueuedMode mode, long acquiredAt) {
        boolean draining = mode.draining();
        try {
            if (mode.released(acquiredAt)) {
                mode.epochAtLean = state.epochAcquire();
                switched(m, false);
            }
        } finally {
            mode.lock.unlock();
        }
        if (draining && Thread.currentThread().isVirtual()) {
            // The monitor's release may have woken a caller that waited in it since before the switch, and
            // a virtual thread it wakes is queued on this carrier: let it run, leave and queue.
            Thread.yield();
        }
    }

    /**
     * With a probe: as SynchronizedGuard's, around whichever mode the call takes, with the section in this
     * frame: no Supplier around it and no array for its times (a lambda and a long[3] per call before; the
     * service takes this path on every update).
     */
    private <T> T callProbed(Supplier<T> criticalSection) {
        Monitor m = monitor;
        Marks marks = this.marks;
        Thread me = Thread.currentThread();
        if (marks.runner == me) {
            // A call inside this thread's own section, in either mode: inline, not another acquisition. Only
            // the holder writes runner, itself and then null, so no other thread reads itself there.
            return criticalSection.get();
        }
        boolean arrivedBusy = marks.busyOpaque();
        boolean report = arrivedBusy || hearsFast;
        boolean clocked = timed || arrivedBusy;
        long asked = clocked ? System.nanoTime() : 0L;
        long began = 0L;
        long ended = 0L;
        State st = state;
        try {
            for (; ; ) { // until one mode's path takes the call, as call() and callLean's fallback do
                if (st.modeAcquire() == WORD) { // as callWord; a call inside the section ran inline above
                    if (!st.retiringOpaque() && st.casOwner(null, me)) {
                        began = enterProbed(marks, me, report, clocked, arrivedBusy, asked);
                        try {
                            return criticalSection.get();
                        } finally {
                            ended = exitProbed(marks);
                            releaseWord(st);
                        }
                    }
                    retireWord(st);
                    continue;
                }
                if (!st.queuedAcquire()) {
                    boolean sampled = picked(sampleMask);
                    int seen = st.epochAcquire();
                    if (!sampled && st.watchOpaque() != me) { // as callLean: the path without the watch
                        synchronized (m) {
                            if (!st.queuedAcquire()) {
                                began = enterProbed(marks, me, report, clocked, arrivedBusy, asked);
                                try {
                                    return criticalSection.get();
                                } finally {
                                    ended = exitProbed(marks);
                                    leanReleasing(m, st, seen);
                                }
                            }
                        }
                    } else { // as callLeanWatched
                        long arrivedAt = st.watchOpaque() == me ? System.nanoTime() : 0L;
                        T result = null;
                        boolean ran = false;
                        synchronized (m) {
                            if (!st.queuedAcquire()) {
                                long acquiredAt = sampled ? System.nanoTime() : 0L;
                                began = enterProbed(marks, me, report, clocked, arrivedBusy, asked);
                                try {
                                    result = criticalSection.get();
                                    ran = true;
                                } finally {
                                    ended = exitProbed(marks);
                                    leanReleasing(m, st, seen, acquiredAt, sampled, me, arrivedAt);
                                }
                            }
                        }
                        if (ran) {
                            if (sampled) {
                                st.left();
                            }
                            return result;
                        }
                    }
                }
                QueuedMode mode = m.modeAcquire();
                int entry = enterQueued(m, mode);
                if (entry == INLINE) {
                    report = false;
                    return criticalSection.get();
                }
                if (entry == OWNED) {
                    long acquiredAt = mode.measuring() ? System.nanoTime() : 0L;
                    began = enterProbed(marks, me, report, clocked, arrivedBusy, asked);
                    try {
                        return criticalSection.get();
                    } finally {
                        ended = exitProbed(marks);
                        exitQueued(m, mode, acquiredAt);
                    }
                }
                // TURNED_LEAN: the lock turned lean while this caller queued
            }
        } finally {
            if (timed && report) { // after the release: recording does not lengthen the section
                probe.released(arrivedBusy, began - asked, ended - began);
            }
        }
    }

    /** The probed holder at its section's start (either mode): the time it got in, if clocked, else 0. */
    private long enterProbed(Marks marks, Thread me, boolean report, boolean clocked, boolean arrivedBusy, long asked) {
        marks.runner = me;
        marks.setBusyOpaque(true);
        if (!report) {
            return 0L;
        }
        long began = clocked ? System.nanoTime() : 0L;
        probe.acquired(arrivedBusy, began - asked);
        return began;
    }

    /** The probed holder at its section's end (either mode): the time, if timed, else 0. */
    private long exitProbed(Marks marks) {
        long ended = timed ? System.nanoTime() : 0L;
        marks.runner = null;
        marks.setBusyOpaque(false);
        return ended;
    }

    /** The monitor's holder, lean, for a caller that starved while the lock stayed saturated: queued. */
    private void turnQueued(Monitor m, boolean outside) {
        if (state.queuedAcquire()) {
            return; // queued already, by a call inside this one
        }
        QueuedMode mode = m.mode;
        long lean = Long.MAX_VALUE; // since it was made
        if (mode == null) {
            mode = new QueuedMode(new NumaHandoffLock(nodes, reserveAfter, carriers), thresholds);
            m.setModeRelease(mode);
        } else {
            lean = (long) (state.epoch - mode.epochAtLean) * (sampleMask + 1);
        }
        mode.startProbation(lean, outside);
        mode.switcher = Thread.currentThread();
        state.saturatedWindows = 0;
        switched(m, true);
    }

    /** The monitor's holder: the lock is queued or lean from here on. */
    private void switched(Monitor m, boolean queued) {
        m.countSwitch();
        state.setQueuedRelease(queued);
        if (probe != null) {
            probe.modeSwitched(queued);
        }
    }

    /** The releases of the current (or last) queued probation; for tests. */
    int probationReleases() {
        state.queuedAcquire(); // after the switch's write of the probation
        QueuedMode mode = monitor.modeAcquire();
        if (mode == null) {
            return 0;
        }
        mode.lock.lock(); // after a queued owner's
        try {
            return mode.turn;
        } finally {
            mode.lock.unlock();
        }
    }

    /** Whether the lock is still a word: no two threads have met on it yet; for monitoring and tests. */
    public boolean isWord() {
        return state.modeAcquire() == WORD;
    }

    /** Whether the lock is in its queued mode now; for monitoring and tests. */
    public boolean isQueued() {
        return state.queuedAcquire();
    }

    /** How many times this lock switched between its modes (both ways); for monitoring and tests. */
    public long modeSwitches() {
        return monitor.switchesOpaque();
    }

    @Override
    public String toString() {
        return "NumaMonitorLock[" + (isWord() ? "word" : isQueued() ? "queued" : "lean") + ", switches="
                + modeSwitches() + "]";
    }

    /**
     * Whether the lock starts as a word ({@code word}), when it turns queued and for how long: one lean
     * acquisition in {@code sampleMask + 1} (a power of two) is sampled; {@code windowSamples} samples make
     * a window, saturated when its sampled holds filled {@code saturatedPercent} of its span; a caller that
     * {@code starvingEpochs} sampled acquisitions overtook after two saturated windows turns the lock
     * queued, for a probation of {@code probation} queued releases, doubling while its measured holds fill
     * {@code busyPercent} of their span.
     */
    record Thresholds(
            int sampleMask,
            int starvingEpochs,
            int windowSamples,
            int saturatedPercent,
            int probation,
            int busyPercent,
            int outsidePatience,
            boolean word) {
        static final Thresholds DEFAULTS = new Thresholds(
                EPOCH_SAMPLE,
                STARVING_EPOCHS,
                WINDOW_SAMPLES,
                SATURATED_PERCENT,
                PROBATION,
                BUSY_PERCENT,
                OUTSIDE_PATIENCE,
                true);

        /**
         * Every acquisition sampled, every window of one sample saturated, every lean call that another
         * overtook turns the lock queued, and every queued release turns it lean (a probation of one, never
         * measured busy).
         */
        static final Thresholds EAGER = new Thresholds(0, 1, 1, 0, 1);

        Thresholds {
            if (Integer.bitCount(sampleMask + 1) != 1
                    || starvingEpochs < 1
                    || windowSamples < 1
                    || saturatedPercent < 0
                    || probation < 1
                    || busyPercent < 0
                    || outsidePatience < 1) {
                throw new IllegalArgumentException("sampleMask + 1 must be a power of two, the others positive");
            }
        }

        /**
         * These thresholds, a probation busy at BUSY_PERCENT, work outside the lock changing nothing (a
         * patience of 1), and no word (lean from the start): a test's switches then do not hang on how long its
         * threads take between calls, nor wait for two of them to meet first.
         */
        Thresholds(int sampleMask, int starvingEpochs, int windowSamples, int saturatedPercent, int probation) {
            this(sampleMask, starvingEpochs, windowSamples, saturatedPercent, probation, BUSY_PERCENT, 1, false);
        }

        /** These thresholds with {@code percent} as the saturated share. */
        Thresholds withSaturatedPercent(int percent) {
            return new Thresholds(
                    sampleMask, starvingEpochs, windowSamples, percent, probation, busyPercent, outsidePatience, word);
        }

        /** These thresholds with {@code percent} as a busy probation's share. */
        Thresholds withBusyPercent(int percent) {
            return new Thresholds(
                    sampleMask,
                    starvingEpochs,
                    windowSamples,
                    saturatedPercent,
                    probation,
                    percent,
                    outsidePatience,
                    word);
        }

        /**
         * These thresholds with {@code patience}: while the lock's threads work outside it, a waiter starves after
         * that many times more overtakes, and the probation after such a switch is brief (1: no difference).
         */
        Thresholds withOutsidePatience(int patience) {
            return new Thresholds(
                    sampleMask,
                    starvingEpochs,
                    windowSamples,
                    saturatedPercent,
                    probation,
                    busyPercent,
                    patience,
                    word);
        }

        /** These thresholds, the lock starting as a word, as the defaults' does. */
        Thresholds withWord() {
            return new Thresholds(
                    sampleMask,
                    starvingEpochs,
                    windowSamples,
                    saturatedPercent,
                    probation,
                    busyPercent,
                    outsidePatience,
                    true);
        }

        /** Whether work outside the lock changes when and for how long it turns queued. */
        boolean patient() {
            return outsidePatience > 1;
        }
    }

    /**
     * The queued mode: the queue lock and its probation's bookkeeping, written only by a thread that holds
     * the monitor (a queued owner, which holds the queue lock too, or the lean owner that switches, before
     * any caller can reach the queue lock), off the monitor's line.
     */
    static final class QueuedMode {
        final NumaHandoffLock lock;
        private final Thresholds thresholds;
        // All under the monitor:
        int releases; // queued releases of this probation
        int turn; // the releases of this probation
        int probation; // the releases of the next: from thresholds.probation(), doubling while the lock stays busy
        long measuredFrom; // nanoTime when this probation's measured releases began (never 0 then); 0: not yet
        long heldNanos; // measured holds, each at most HOLD_CAP_NANOS
        int epochAtLean; // the monitor's epoch when the lock last turned lean
        int sinceSwitch; // queued releases since the switch to queued, up to DRAIN_RELEASES
        boolean brief; // this probation ends lean however busy: the lock's threads work outside it
        Thread switcher; // the lean owner that last switched to queued, plain: read by every queued call, for
        // reentrancy (only that thread reads itself there; a stale value costs it a Thread.holdsLock)
        boolean barrier; // set by the lean owner that switches (before queued, release); cleared by the next queued
        // owner, which then passes through the monitor once before its section

        QueuedMode(NumaHandoffLock lock, Thresholds thresholds) {
            this.lock = lock;
            this.thresholds = thresholds;
            this.probation = thresholds.probation();
        }

        /**
         * The lean owner at the switch to queued, {@code leanAcquisitions} (about) after the lock last turned
         * lean: a probation starts, twice as long as the last when the lock starved a waiter again within less
         * lean than that, else the first one.
         */
        void startProbation(long leanAcquisitions, boolean outside) {
            brief = outside;
            if (outside) {
                probation = Math.max(1, thresholds.probation() / BRIEF_PROBATION_DIVISOR);
            } else {
                probation = leanAcquisitions < turn
                        ? (int) Math.min(MAX_PROBATION, 2L * probation)
                        : thresholds.probation();
            }
            sinceSwitch = 0;
            barrier = true;
            nextProbation();
        }

        private void nextProbation() {
            turn = probation;
            releases = 0;
            measuredFrom = 0L;
            heldNanos = 0L;
        }

        /**
         * At a queued release: whether it is one of the first DRAIN_RELEASES since the switch, while callers
         * that waited in the monitor before it may still be there.
         */
        boolean draining() {
            return sinceSwitch < DRAIN_RELEASES && ++sinceSwitch > 0;
        }

        /** Whether this queued release's hold is to be measured (read at the acquisition). */
        boolean measuring() {
            return measuredFrom != 0L;
        }

        /** At a queued release (its hold measured from {@code acquiredAt}, unless 0): whether to turn lean now. */
        boolean released(long acquiredAt) {
            if (acquiredAt != 0L) {
                heldNanos += Math.min(HOLD_CAP_NANOS, System.nanoTime() - acquiredAt);
            }
            int done = ++releases;
            if (done >= turn) {
                long span = System.nanoTime() - measuredFrom;
                if (!brief && measuredFrom != 0L && 100L * heldNanos >= (long) thresholds.busyPercent() * span) {
                    probation = (int) Math.min(MAX_PROBATION, 2L * probation); // the threads' bottleneck
                    nextProbation();
                    return false;
                }
                return true;
            }
            if (done == turn - Math.min(MEASURED_RELEASES, turn / 2)) {
                measuredFrom = System.nanoTime() | 1L;
            }
            return false;
        }
    }

    /**
     * The word, the mode and the epoch, which every call reads, and the lean window, which only sampled
     * holders write (with the epoch): an object of their own, padded on both sides, so the line they are on
     * is written only by word calls (a lock no two threads have met on yet), at a switch and at a sampled
     * acquisition, and not by the monitor's header (which every lean acquisition writes) nor by any other
     * object's fields. Read from the monitor's line, they cost a striped store's lean path a second transfer
     * of that line per handoff (6 hot words, 64 stripes: 0.90 of synchronized; JOURNAL 2026-11-27 02:00).
     */
    static final class State extends StateFields {
        long p11, p12, p13, p14, p15, p16, p17;
    }

    /** The state's fields, after its lead. */
    abstract static class StateFields extends StateLead {
        private static final VarHandle MODE;
        private static final VarHandle EPOCH;
        private static final VarHandle WATCH;
        private static final VarHandle WATCH_RELEASED;
        private static final VarHandle OWNER;
        private static final VarHandle RETIRING;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                MODE = lookup.findVarHandle(StateFields.class, "mode", byte.class);
                EPOCH = lookup.findVarHandle(StateFields.class, "epoch", int.class);
                WATCH = lookup.findVarHandle(StateFields.class, "watch", Thread.class);
                WATCH_RELEASED = lookup.findVarHandle(StateFields.class, "watchReleased", int.class);
                OWNER = lookup.findVarHandle(StateFields.class, "owner", Object.class);
                RETIRING = lookup.findVarHandle(StateFields.class, "retiring", boolean.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        // LEAN, QUEUED or WORD. Release, by the switching owner (lean: the monitor's; queued: the queue lock's; word:
        // the retiring caller, in the monitor, once); acquire, by every call before it picks a path.
        byte mode;
        int epoch; // opaque, by the monitor's holder at a sampled acquisition; acquire, by every lean call before it
        // enters the monitor (a plain or opaque read may be moved into the synchronized block, after the wait)
        // The lean window, the monitor's holder only, written at sampled acquisitions with the epoch (one line):
        int samples; // sampled acquisitions in the current window
        int saturatedWindows; // saturated windows in a row, up to the last one; reset by the switch to queued
        long windowFrom; // nanoTime at the current window's start; 0: none yet
        long sampledHolds; // the window's sampled holds, each at most HOLD_CAP_NANOS
        // The watch, the monitor's holder only, written at sampled acquisitions and at the watched thread's return:
        Thread watch; // opaque: the last sampled holder, until it comes back; read (opaque) by every lean call
        int watchReleased; // the low 32 bits of nanoTime at the watched thread's release
        int watchHold; // the watched thread's sampled hold, at most HOLD_CAP_NANOS
        byte outsideVotes; // +1 for each return after work outside at least OUTSIDE_PERCENT of its hold, -1 else

        // The word: null while free, the holding thread, or RETIRED once two threads met on it. CAS from null
        // to the caller (acquire and release), release to null; acquire, by a word call whose CAS failed.
        Object owner;
        boolean retiring; // volatile, once, by the first caller that found the word held; opaque, by word callers

        Object ownerAcquire() {
            return OWNER.getAcquire(this);
        }

        boolean casOwner(Object expected, Object value) {
            return OWNER.compareAndSet(this, expected, value);
        }

        void setOwnerRelease(Object value) {
            OWNER.setRelease(this, value);
        }

        boolean retiringOpaque() {
            return (boolean) RETIRING.getOpaque(this);
        }

        /** Whether this caller is the one that retires the word (the first to find it held). */
        boolean casRetiring() {
            return !retiringOpaque() && RETIRING.compareAndSet(this, false, true);
        }

        byte modeAcquire() {
            return (byte) MODE.getAcquire(this);
        }

        void setModeRelease(byte value) {
            MODE.setRelease(this, value);
        }

        boolean queuedAcquire() {
            return modeAcquire() == QUEUED;
        }

        void setQueuedRelease(boolean value) {
            setModeRelease(value ? QUEUED : LEAN);
        }

        int epochAcquire() {
            return (int) EPOCH.getAcquire(this);
        }

        /**
         * The watched thread, just out of the monitor after its sampled section: the time its gap starts (a
         * monitor's release that wakes a waiter takes as long as a short section, and is not work outside).
         * Outside the monitor: a sampled holder that got in meanwhile may have set the watch and its own time,
         * which this write then moves to this one's (an accepted race: one vote of one watch in error).
         */
        void left() {
            WATCH_RELEASED.setOpaque(this, (int) System.nanoTime());
        }

        Thread watchOpaque() {
            return (Thread) WATCH.getOpaque(this);
        }

        /**
         * Whether the lock's threads are taken to work outside it: unless the watched threads' last returns were
         * mostly straight back (a lock whose threads never come back, or not yet, is a striped store's).
         */
        boolean outside() {
            return outsideVotes >= 0;
        }

        /**
         * The monitor's holder, the watched thread back (it arrived at {@code arrivedAt}): a vote on whether it
         * worked outside the lock between its sampled release and this arrival, as long as OUTSIDE_PERCENT of
         * its sampled hold at least; the watch ends.
         */
        void cameBack(long arrivedAt) {
            int gap = (int) arrivedAt - watchReleased; // nanoTime's low bits: any gap under 2 s
            boolean worked = gap >= OUTSIDE_MIN_NANOS && 100L * gap >= (long) OUTSIDE_PERCENT * watchHold;
            outsideVotes = (byte)
                    (worked ? Math.min(outsideVotes + 1, OUTSIDE_VOTES) : Math.max(outsideVotes - 1, -OUTSIDE_VOTES));
            WATCH.setOpaque(this, null);
        }

        /**
         * The monitor's holder at the end of a sampled lean acquisition (acquired at {@code acquiredAt}, one of
         * {@code every}): one more epoch; the hold joins the window's, and at the window's end the window counts
         * as saturated or not.
         */
        void sampled(long acquiredAt, int every, Thresholds t, Thread holder) {
            EPOCH.setOpaque(this, epoch + 1);
            long now = System.nanoTime();
            long hold = Math.min(HOLD_CAP_NANOS, now - acquiredAt);
            sampledHolds += hold;
            watchHold = (int) hold;
            watchReleased = (int) now; // until left() writes when it left the monitor
            WATCH.setOpaque(this, holder);
            if (++samples >= t.windowSamples()) {
                if (windowFrom != 0L) {
                    boolean saturated = 100L * sampledHolds * every >= (long) t.saturatedPercent() * (now - windowFrom);
                    saturatedWindows = saturated ? Math.min(saturatedWindows + 1, 2) : 0;
                }
                windowFrom = now;
                samples = 0;
                sampledHolds = 0L;
            }
        }
    }

    /**
     * 52 bytes after the header (an int fills the gap after it, so no later field does): no field of the
     * object before the state shares its fields' line.
     */
    abstract static class StateLead {
        int p00;
        long p01, p02, p03, p04, p05, p06;
    }

    /** The object whose header is the lean lock, with the fields written at switches: no lean call writes its line. */
    static final class Monitor {
        private static final VarHandle SWITCHES;
        private static final VarHandle MODE;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                SWITCHES = lookup.findVarHandle(Monitor.class, "switches", long.class);
                MODE = lookup.findVarHandle(Monitor.class, "mode", QueuedMode.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        long switches; // opaque, by the switching owner; read by modeSwitches()
        QueuedMode mode; // release, once, by the monitor's holder at the first switch; acquire, by queued calls

        long switchesOpaque() {
            return (long) SWITCHES.getOpaque(this);
        }

        QueuedMode modeAcquire() {
            return (QueuedMode) MODE.getAcquire(this);
        }

        void setModeRelease(QueuedMode value) {
            MODE.setRelease(this, value);
        }

        /** The switching owner (either lock's holder: switches never race): one switch more. */
        void countSwitch() {
            SWITCHES.setOpaque(this, switches + 1);
        }
    }

    /** With a probe: what the probed holder writes at each acquisition, in an object of its own. */
    static final class Marks {
        private static final VarHandle BUSY;

        static {
            try {
                BUSY = MethodHandles.lookup().findVarHandle(Marks.class, "busy", boolean.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        boolean busy; // opaque, by the holder at its section's start and end; opaque, by arrivals
        Thread runner; // plain, holder only: the thread in the outermost critical section

        boolean busyOpaque() {
            return (boolean) BUSY.getOpaque(this);
        }

        void setBusyOpaque(boolean value) {
            BUSY.setOpaque(this, value);
        }
    }
}
