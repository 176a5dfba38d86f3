package dev.wordstats.numa.lock;

import dev.wordstats.numa.topology.NodeLocator;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * A lock for striped stores of virtual threads that is the JVM's own monitor while its waiters are
 * served, and a {@link NumaHandoffLock} while a waiter starves on a lock that stays saturated
 * ({@link LockType#NUMA_MONITOR}). Lean, a critical section runs in {@code synchronized} on a private
 * object: HotSpot's lock (a CAS on the object's header, adaptive spinning while the owner runs, then a
 * park that, since JDK 24, gives the carrier back), which no lock written in Java has matched at short
 * critical sections on many stripes. Queued, a call takes the queue lock instead, whose per-node queues
 * hand over to a running successor, bound every wait and keep the lock on one NUMA node for a turn.
 *
 * <p>The {@link Guard} contract holds in both modes: mutual exclusion with a happens-before edge from
 * each critical section to the next, results and exceptions reach their callers unchanged, a call from
 * inside a critical section runs inline, and waiting is not interruptible. Not a
 * {@link java.util.concurrent.locks.Lock}: a monitor cannot be entered in one method and left in
 * another, so there is no {@code lock()}/{@code unlock()} pair. Not fair while lean (the monitor lets
 * an arriving thread overtake a parked one), but when a waiter that waited {@link #STARVING_NANOS} to
 * get in finds the lock held most of the time, the lock turns queued, where waits are bounded, for a
 * probation that doubles while the lock stays busy.
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
     * Parts
     *  - state: queued (the mode), which every call reads, and the watch (below), which sampled
     *    holders write, in a padded object of its own: its line is written only at a switch and by a
     *    sampled acquisition while the lock is watched or starts to be, never by the monitor's header
     *    (JOURNAL 2026-11-27 02:05).
     *  - monitor: a private object, never exposed; its header is the lean lock; its fields are the
     *    switch count, the queue and what a probe needs. No lean acquisition without a probe writes
     *    any of them: once the monitor is inflated, its acquisitions only read the header (the lock
     *    word is the ObjectMonitor's), and a write on the header's line at each one, a count that
     *    picked the samples, moved that line between carriers at every handoff, 0.84 of synchronized
     *    on striped counting (JOURNAL 2026-11-27 09:55).
     *  - queue: a QueuedMode (the queue lock and what only its owners write), made at the first
     *    switch to queued, off the monitor's line; a store whose stripes never starve never makes one.
     *
     * Lean call, unsampled (SAMPLE_MASK calls in SAMPLE_MASK + 1, picked by the caller's own
     * ThreadLocalRandom before it enters the monitor): synchronized (monitor) { if queued (read
     * inside), leave and make a queued call; else run }. Nothing else: no clock, no shared write, and
     * no field of the lock read but the mode. Any bookkeeping every call does costs here: an epoch
     * that every call read at arrival and again at its end, to count how many sampled acquisitions
     * overtook it (the design before), held the lock at 0.93-0.96 of synchronized on striped
     * counting, where a lock that sampled nothing counted at 0.97-1.00 (JOURNAL 2026-11-27 14:00-
     * 14:52); which of its parts cost that was below the host's noise.
     * Lean call, sampled: the same, with the clock read before the monitor and inside it, and at the
     * end leanSampled: a caller that waited STARVING_NANOS (Go's starvation threshold) starts a watch,
     * unless the lock is quiet. While watched, each sampled hold joins a window of WINDOW_SAMPLES;
     * a window is saturated when its holds, each standing for SAMPLE_MASK + 1 acquisitions, fill
     * SATURATED_PERCENT of its span: the lock is its threads' bottleneck. Two saturated windows in
     * a row turn the lock queued; a window that is not saturated ends the watch, and the lock stays
     * quiet (no new watch) for QUIET_NANOS, doubling at each such end up to MAX_QUIET_NANOS, reset
     * by a saturated window and by a switch to queued: a stripe that is never saturated is watched
     * about once a second, a hot lock whose windows straddle SATURATED_PERCENT within milliseconds.
     * Only sampled callers look for starvation, so on a lock with many starving waiters one of them
     * is sampled within about SAMPLE_MASK + 1 of their calls.
     *    Not starvation alone: on 4 stripes of Zipf counting a woken waiter waits that long for a
     *    carrier (64 CPU-bound virtual threads, 2 carriers), not for the lock; those stripes' windows
     *    are mostly 10-40% held (JOURNAL 2026-11-27 01:10), and queued there they count at half the
     *    speed. The quiet stretch keeps such a stripe from being watched (its sampled holders
     *    writing the state's line) most of the time.
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
     *  - lean -> queued: by the monitor's holder at the end of a sampled section that closed the
     *    watch's second saturated window in a row (above).
     *    It makes the queue lock if there is none yet, starts a probation and sets the barrier, then
     *    writes queued (release). Later arrivals go to the queue lock; callers that waited in the
     *    monitor since before the switch get in one by one, read queued, leave at once (waking the
     *    next) and queue too: the drain, which the releasing queued owners' yields give carriers to.
     *  - queued -> lean: by a queued owner at the end of a probation whose measured releases (the
     *    last MEASURED_RELEASES, at most half) held the lock less than BUSY_PERCENT of their span;
     *    a busy one starts a probation twice as long (at most MAX_PROBATION). It writes queued false
     *    (release) after its section, while it holds the queue lock; a waiter that then gets the
     *    queue lock reads it, releases the queue lock and makes a lean call. A switch to queued
     *    before any watch found the lock cooled since the last one doubles the last probation; one
     *    after such a watch starts from PROBATION.
     *
     * Invariants
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
     *  - A sampled waiter that waited STARVING_NANOS starts a watch, and a watch that finds the lock
     *    saturated turns it queued, where the queue lock bounds every wait (its reservation); a lock
     *    that is not saturated stays lean, and quiet for a stretch that doubles.
     *    // checked by NumaMonitorLockTest.aStarvingWaiterTurnsTheLockQueued
     *    // checked by NumaMonitorLockTest.aStarvingWaiterKeepsALockThatIsNotSaturatedLeanAndQuiet
     *    // checked by NumaMonitorLockTest.aStarvingWaiterOfAQuietLockStartsNoWatch
     *    // checked by NumaMonitorLockTest.aSaturatedWindowResetsTheQuietStretch
     *  - An unsampled lean call writes nothing, on the monitor object or the state.
     *    // checked by NumaMonitorLockTest.aLeanCallThatIsNotSampledWritesNeitherItsMonitorNorItsState
     *  - Queued to lean after a probation that was not busy; a busy one doubles; a switch back before
     *    a watch found the lock cooled doubles it too, one after that starts afresh.
     *    // checked by NumaMonitorLockTest.aQueuedLockTurnsLeanAfterAProbationThatWasNotBusy
     *    // checked by NumaMonitorLockTest.aBusyProbationDoublesAndAnIdleOneTurnsLean
     *    // checked by NumaMonitorLockTest.aBusyQueuedLockStaysQueuedForADoubledProbation
     *  - A virtual thread never spins unboundedly: the monitor's spin is HotSpot's, bounded and
     *    adaptive; the queue lock spins only while its owner runs, and at most a bound.
     *
     * Accepted races
     *  - A sampled caller's wait includes any time its carrier was stopped (the host took its CPU)
     *    and, for a virtual thread, the time it waited for a carrier; the saturation test keeps such a
     *    stripe lean unless it is its threads' bottleneck anyway.
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
     * Probe (optional; none: the unsampled lean call is the bare synchronized block):
     * as SynchronizedGuard, a call waited when a critical section was running as it arrived (busy,
     * read at arrival, written by the holder with a probe only); modeSwitched by the switching
     * owner; the queue lock itself reports nothing. The probed call runs its section in its own frame
     * in both modes, so it allocates nothing; a call inside a probed section runs inline at once (the
     * holder's runner is itself), in either mode.
     *
     * Memory: 248 bytes, the guard, its padded state and its monitor (NumaMonitorLockTest's layout
     * test); the queue lock, hundreds of bytes, only for a lock that once starved a waiter while
     * saturated.
     */

    /**
     * Lean: one call in SAMPLE_MASK + 1 (a power of two) is sampled: it clocks its wait and, while the lock is
     * watched, its hold.
     */
    static final int SAMPLE_MASK = 63;

    /** Lean: a sampled caller that waited this long to get in is starving (Go's sync.Mutex: 1 ms). */
    public static final long STARVING_NANOS = 1_000_000L;

    /** Lean: after the first watch that ends without a switch, the lock stays quiet this long (no new watch). */
    static final long QUIET_NANOS = 1_000_000L;

    /**
     * Lean: the quiet stretch doubles at each watch that ends without a switch, up to this; a saturated window
     * resets it. Without the reset a kept hot lock whose windows straddle SATURATED_PERCENT (50-110% held) went
     * quiet for up to this long after its queued probations ended, lean and unfair (Jain 0.75 at ~0.2 us in one
     * of two runs; JOURNAL 2026-11-27 16:55).
     */
    static final long MAX_QUIET_NANOS = 1_000_000_000L;

    /** Lean: the sampled holds of this many sampled acquisitions make one window of the busy share. */
    static final int WINDOW_SAMPLES = 16;

    /**
     * Lean: a window whose sampled holds, each standing for SAMPLE_MASK + 1 acquisitions, filled this share
     * (percent) of its span is saturated; a starving caller turns the lock queued only after two saturated
     * windows in a row. Measured (JOURNAL 2026-11-27 01:10): a stripe of 4 counted a word at a time, its
     * windows mostly 10-40%; one hot lock with all the work inside, mostly 50-110%.
     */
    static final int SATURATED_PERCENT = 75;

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

    /** enterQueued: the caller holds the queue lock; its section runs, then exitQueued. */
    private static final int OWNED = 0;

    /** enterQueued: a call from inside the caller's own section; it runs inline, with nothing to release. */
    private static final int INLINE = 1;

    /** enterQueued: the lock turned lean while the caller queued; it holds nothing and makes a lean call. */
    private static final int TURNED_LEAN = 2;

    private final State state = new State();
    private final Monitor monitor = new Monitor();
    private final NodeLocator nodes;
    private final Duration reserveAfter; // the queue lock's reservation threshold
    private final int carriers; // the queue lock's carrier count
    private final LockProbe probe; // null without one
    private final boolean hearsFast; // probe != null && probe.hearsFastPath()
    private final boolean timed; // probe != null && probe.timed()
    private final int sampleMask; // read by every lean call: thresholds.sampleMask()
    private final long starvingNanos; // read by sampled lean calls: thresholds.starvingNanos()
    private final Thresholds thresholds; // the defaults, or a test's

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
        this.starvingNanos = thresholds.starvingNanos();
        this.nodes = context.nodes();
        this.reserveAfter = Objects.requireNonNull(reserveAfter, "reserveAfter");
        this.carriers = context.carriers();
        this.probe = LockProbe.orNull(Objects.requireNonNull(probe, "probe"));
        this.hearsFast = this.probe != null && this.probe.hearsFastPath();
        this.timed = this.probe != null && this.probe.timed();
    }

    @Override
    public <T> T call(Supplier<T> criticalSection) {
        if (probe != null) {
            return callProbed(criticalSection);
        }
        Monitor m = monitor;
        if (state.queuedAcquire()) {
            return callQueued(m, criticalSection);
        }
        return picked(sampleMask) ? callSampled(m, criticalSection) : callLean(m, criticalSection);
    }

    /**
     * As {@link #call}, with the section itself in the synchronized block or under the queue lock: no
     * Supplier is made around it per call (Guard's own run makes one, 16 bytes a call on a hot lock).
     */
    @Override
    public void run(Runnable criticalSection) {
        Monitor m = monitor;
        if (probe != null) {
            Guard.super.run(criticalSection); // the probed call wraps the section anyway
        } else if (state.queuedAcquire()) {
            runQueued(m, criticalSection);
        } else if (picked(sampleMask)) {
            runSampled(m, criticalSection);
        } else {
            runLean(m, criticalSection);
        }
    }

    /** An unsampled lean call: the synchronized block and the mode read inside it, nothing else. */
    private <T> T callLean(Monitor m, Supplier<T> criticalSection) {
        synchronized (m) {
            if (!state.queuedAcquire()) { // turned lean by a queued owner, outside the monitor: acquire
                return criticalSection.get();
            }
        }
        // It waited in the monitor while the lock turned queued: it leaves the monitor (whose release wakes
        // the next one waiting there) and queues with the rest.
        return callQueued(m, criticalSection);
    }

    /** As callLean, for a Runnable. */
    private void runLean(Monitor m, Runnable criticalSection) {
        synchronized (m) {
            if (!state.queuedAcquire()) {
                criticalSection.run();
                return;
            }
        }
        runQueued(m, criticalSection);
    }

    /** A sampled lean call: as callLean, its wait and hold clocked for the watch (leanSampled). */
    private <T> T callSampled(Monitor m, Supplier<T> criticalSection) {
        State st = state;
        long asked = System.nanoTime();
        synchronized (m) {
            if (!st.queuedAcquire()) {
                long acquiredAt = System.nanoTime();
                try {
                    return criticalSection.get();
                } finally {
                    leanSampled(m, st, asked, acquiredAt);
                }
            }
        }
        return callQueued(m, criticalSection);
    }

    /** As callSampled, for a Runnable. */
    private void runSampled(Monitor m, Runnable criticalSection) {
        State st = state;
        long asked = System.nanoTime();
        synchronized (m) {
            if (!st.queuedAcquire()) {
                long acquiredAt = System.nanoTime();
                try {
                    criticalSection.run();
                    return;
                } finally {
                    leanSampled(m, st, asked, acquiredAt);
                }
            }
        }
        runQueued(m, criticalSection);
    }

    /**
     * The monitor's holder at the end of a sampled lean section (asked at {@code asked}, acquired at
     * {@code acquiredAt}): a caller that waited STARVING_NANOS starts a watch unless the lock is quiet; a
     * watch's sampled holds fill windows; two saturated windows in a row turn the lock queued.
     */
    private void leanSampled(Monitor m, State st, long asked, long acquiredAt) {
        if (st.queued) {
            return; // turned queued by a call inside this section: no watch while queued
        }
        if (st.sampled(acquiredAt - asked >= starvingNanos, acquiredAt, sampleMask + 1, thresholds)) {
            turnQueued(m);
        }
    }

    /**
     * Whether this lean call is sampled: one in {@code sampleMask + 1}, picked by the caller's own random
     * (its thread's {@link ThreadLocalRandom} seed), before it enters the monitor. Nothing shared is written
     * for it: a count in the monitor object (the pick before) made every lean acquisition write the
     * monitor's line, which an inflated monitor's acquisitions otherwise only read (the lock word is then
     * the ObjectMonitor's), one more line to move between carriers at each handoff: 0.87 of synchronized
     * on striped counting with rounds in one JVM, 0.94 with this pick (JOURNAL 2026-11-27 09:55-11:00).
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
        Thread me = Thread.currentThread();
        if (m.runner == me) {
            // A call inside this thread's own section, in either mode: inline, not another acquisition. Only
            // the holder writes runner, itself and then null, so no other thread reads itself there.
            return criticalSection.get();
        }
        boolean arrivedBusy = m.busyOpaque();
        boolean report = arrivedBusy || hearsFast;
        boolean clocked = timed || arrivedBusy;
        long asked = clocked ? System.nanoTime() : 0L;
        long began = 0L;
        long ended = 0L;
        State st = state;
        try {
            for (; ; ) { // until one mode's path takes the call, as call() and callLean's fallback do
                if (!st.queuedAcquire()) {
                    boolean sampled = picked(sampleMask);
                    long since = sampled ? System.nanoTime() : 0L;
                    synchronized (m) {
                        if (!st.queuedAcquire()) {
                            long acquiredAt = sampled ? System.nanoTime() : 0L;
                            began = enterProbed(m, me, report, clocked, arrivedBusy, asked);
                            try {
                                return criticalSection.get();
                            } finally {
                                ended = exitProbed(m);
                                if (sampled) {
                                    leanSampled(m, st, since, acquiredAt);
                                }
                            }
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
                    began = enterProbed(m, me, report, clocked, arrivedBusy, asked);
                    try {
                        return criticalSection.get();
                    } finally {
                        ended = exitProbed(m);
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
    private long enterProbed(Monitor m, Thread me, boolean report, boolean clocked, boolean arrivedBusy, long asked) {
        m.runner = me;
        m.setBusyOpaque(true);
        if (!report) {
            return 0L;
        }
        long began = clocked ? System.nanoTime() : 0L;
        probe.acquired(arrivedBusy, began - asked);
        return began;
    }

    /** The probed holder at its section's end (either mode): the time, if timed, else 0. */
    private long exitProbed(Monitor m) {
        long ended = timed ? System.nanoTime() : 0L;
        m.runner = null;
        m.setBusyOpaque(false);
        return ended;
    }

    /** The monitor's holder, lean, for a caller that starved while the lock stayed saturated: queued. */
    private void turnQueued(Monitor m) {
        if (state.queuedAcquire()) {
            return; // queued already, by a call inside this one
        }
        QueuedMode mode = m.mode;
        boolean again = false; // starving again with no cooled watch since the last probation
        if (mode == null) {
            mode = new QueuedMode(new NumaHandoffLock(nodes, reserveAfter, carriers), thresholds);
            m.setModeRelease(mode);
        } else {
            again = !state.cooled;
        }
        mode.startProbation(again);
        mode.switcher = Thread.currentThread();
        state.turnedQueued();
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
        return "NumaMonitorLock[" + (isQueued() ? "queued" : "lean") + ", switches=" + modeSwitches() + "]";
    }

    /**
     * When the lock turns queued and for how long: one lean acquisition in {@code sampleMask + 1} (a power
     * of two) is sampled; a sampled caller that waited {@code starvingNanos} starts a watch, unless the lock
     * is quiet; {@code windowSamples} sampled holds of the watch make a window, saturated when they filled
     * {@code saturatedPercent} of its span; two saturated windows in a row turn the lock queued, for a
     * probation of {@code probation} queued releases (doubling while busy); a window that is not saturated
     * ends the watch, and the lock stays quiet for {@code quietNanos}, doubling at each such window up to
     * MAX_QUIET_NANOS.
     */
    record Thresholds(
            int sampleMask,
            long starvingNanos,
            int windowSamples,
            int saturatedPercent,
            int probation,
            long quietNanos) {
        static final Thresholds DEFAULTS =
                new Thresholds(SAMPLE_MASK, STARVING_NANOS, WINDOW_SAMPLES, SATURATED_PERCENT, PROBATION, QUIET_NANOS);

        /**
         * Every acquisition sampled and starving, every window of one sample saturated, never quiet: the third
         * lean call in a row turns the lock queued; and every queued release turns it lean (a probation of
         * one, never measured busy).
         */
        static final Thresholds EAGER = new Thresholds(0, 0L, 1, 0, 1, 0L);

        Thresholds {
            if (Integer.bitCount(sampleMask + 1) != 1
                    || starvingNanos < 0
                    || windowSamples < 1
                    || saturatedPercent < 0
                    || probation < 1
                    || quietNanos < 0) {
                throw new IllegalArgumentException("sampleMask + 1 must be a power of two, the others positive");
            }
        }

        /** These thresholds with {@code mask} as the sample mask. */
        Thresholds withSampleMask(int mask) {
            return new Thresholds(mask, starvingNanos, windowSamples, saturatedPercent, probation, quietNanos);
        }

        /** These thresholds with {@code percent} as the saturated share. */
        Thresholds withSaturatedPercent(int percent) {
            return new Thresholds(sampleMask, starvingNanos, windowSamples, percent, probation, quietNanos);
        }

        /** These thresholds with {@code nanos} as a starving wait. */
        Thresholds withStarvingNanos(long nanos) {
            return new Thresholds(sampleMask, nanos, windowSamples, saturatedPercent, probation, quietNanos);
        }

        /** These thresholds with {@code nanos} as the first quiet stretch. */
        Thresholds withQuietNanos(long nanos) {
            return new Thresholds(sampleMask, starvingNanos, windowSamples, saturatedPercent, probation, nanos);
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
        int sinceSwitch; // queued releases since the switch to queued, up to DRAIN_RELEASES
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
         * The lean owner at the switch to queued: a probation starts, twice as long as the last when the lock
         * starved a waiter {@code again} (no watch found it cooled since the last probation), else the first.
         */
        void startProbation(boolean again) {
            probation = again ? (int) Math.min(MAX_PROBATION, 2L * probation) : thresholds.probation();
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
                if (measuredFrom != 0L && 100L * heldNanos >= (long) BUSY_PERCENT * span) {
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
     * The mode, which every call reads, and the watch, which only sampled holders write: an object of their
     * own, padded on both sides, so the line they are on is written only at a switch and at a sampled
     * acquisition while the lock is watched or starts to be, and not by the monitor's header (which every
     * lean acquisition writes) nor by any other object's fields. Read from the monitor's line, they cost a
     * striped store's lean path a second transfer of that line per handoff (6 hot words, 64 stripes: 0.90 of
     * synchronized; JOURNAL 2026-11-27 02:00).
     */
    static final class State extends StateFields {
        long p11, p12, p13, p14, p15, p16, p17;
    }

    /** The state's fields, after its lead. */
    abstract static class StateFields extends StateLead {
        private static final VarHandle QUEUED;

        static {
            try {
                QUEUED = MethodHandles.lookup().findVarHandle(StateFields.class, "queued", boolean.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        boolean queued; // release, by the switching owner (lean: the monitor's; queued: the queue lock's); acquire
        // The watch, the monitor's holder only, at sampled lean acquisitions and at the switch to queued:
        boolean watching; // a starving caller started a watch, which has not ended yet
        boolean cooled; // a watch ended with a window that was not saturated, since the last switch to queued
        int samples; // sampled holds in the current window
        int saturatedWindows; // saturated windows in a row in this watch
        int quietNanos; // how long the lock stays quiet after a watch ended (0: not quiet); doubles
        long windowFrom; // nanoTime at the current window's start
        long sampledHolds; // the window's sampled holds, each at most HOLD_CAP_NANOS
        long quietFrom; // nanoTime when the last watch ended

        boolean queuedAcquire() {
            return (boolean) QUEUED.getAcquire(this);
        }

        void setQueuedRelease(boolean value) {
            QUEUED.setRelease(this, value);
        }

        /**
         * The monitor's holder at the end of a sampled lean acquisition (acquired at {@code acquiredAt}, one of
         * {@code every}; {@code starved} if it waited STARVING_NANOS): whether to turn the lock queued. Not
         * watched, a starved caller starts a watch unless the lock is quiet; watched, the hold joins the
         * window's, and at the window's end a saturated window counts, and one that is not ends the watch.
         */
        boolean sampled(boolean starved, long acquiredAt, int every, Thresholds t) {
            if (!watching) { // no clock read here: the call's acquisition time stands for now
                if (starved && (quietNanos == 0 || acquiredAt - quietFrom >= quietNanos)) {
                    watching = true;
                    windowFrom = acquiredAt;
                }
                return false;
            }
            long now = System.nanoTime();
            sampledHolds += Math.min(HOLD_CAP_NANOS, now - acquiredAt);
            if (++samples < t.windowSamples()) {
                return false;
            }
            boolean saturated = 100L * sampledHolds * every >= (long) t.saturatedPercent() * (now - windowFrom);
            windowFrom = now;
            samples = 0;
            sampledHolds = 0L;
            if (saturated) {
                quietNanos = 0; // the next watch that ends starts from the first quiet stretch
                return ++saturatedWindows >= 2;
            }
            endWatch();
            cooled = true;
            quietFrom = now;
            quietNanos = (int) Math.min(MAX_QUIET_NANOS, Math.max(t.quietNanos(), 2L * quietNanos));
            return false;
        }

        /** The monitor's holder: the watch ends, its windows forgotten. */
        void endWatch() {
            watching = false;
            samples = 0;
            saturatedWindows = 0;
            sampledHolds = 0L;
        }

        /**
         * The monitor's holder at the switch to queued: no watch, and neither cooled nor quiet any more (the
         * lock was its threads' bottleneck).
         */
        void turnedQueued() {
            endWatch();
            cooled = false;
            quietNanos = 0;
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

    /**
     * The object whose header is the lean lock, with the fields written at switches and those a probe needs:
     * no lean acquisition without a probe writes its line.
     */
    static final class Monitor {
        private static final VarHandle BUSY;
        private static final VarHandle SWITCHES;
        private static final VarHandle MODE;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                BUSY = lookup.findVarHandle(Monitor.class, "busy", boolean.class);
                SWITCHES = lookup.findVarHandle(Monitor.class, "switches", long.class);
                MODE = lookup.findVarHandle(Monitor.class, "mode", QueuedMode.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        boolean busy; // with a probe: opaque, by the holder at its section's start and end; opaque, by arrivals
        Thread runner; // with a probe: plain, holder only: the thread in the outermost critical section
        long switches; // opaque, by the switching owner; read by modeSwitches()
        QueuedMode mode; // release, once, by the monitor's holder at the first switch; acquire, by queued calls

        boolean busyOpaque() {
            return (boolean) BUSY.getOpaque(this);
        }

        void setBusyOpaque(boolean value) {
            BUSY.setOpaque(this, value);
        }

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
}
