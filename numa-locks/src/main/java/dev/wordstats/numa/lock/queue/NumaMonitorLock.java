package dev.wordstats.numa.lock.queue;

import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.MonitorLockSettings;
import dev.wordstats.numa.lock.QueueLockSettings;
import dev.wordstats.numa.lock.probe.LockProbe;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * A lock for striped stores of virtual threads that is a word of its own until two threads meet on it,
 * then the JVM's own monitor while its waiters are served, and a {@link NumaHandoffLock} for a turn once a
 * caller has waited longer than a bound ({@link LockType#NUMA_MONITOR}). As a word, a critical section
 * runs between a CAS and a store: the cheapest uncontended call of the project's locks. Lean, a
 * critical section runs in {@code synchronized} on a private object: HotSpot's lock (a CAS on the
 * object's header, adaptive spinning while the owner runs, then a park that, since JDK 24, gives the
 * carrier back). Queued, a call takes the queue lock instead, whose per-node queues hand over to a
 * running successor in order, bound every wait and keep the lock on one NUMA node for a turn.
 *
 * <p>The {@link Guard} contract holds in every mode: mutual exclusion with a happens-before edge from
 * each critical section to the next, results and exceptions reach their callers unchanged, a call from
 * inside a critical section runs inline, and waiting is not interruptible. Not a
 * {@link java.util.concurrent.locks.Lock}: a monitor cannot be entered in one method and left in
 * another, so there is no {@code lock()}/{@code unlock()} pair. Not fair while lean (the monitor lets
 * an arriving thread overtake a parked one), but bounded in time: a caller that waited
 * {@link MonitorLockSettings#handoffAfter()} ({@link #DEFAULT_HANDOFF_AFTER} by default) turns the lock to
 * in-order handoff until the callers that were waiting then have been served.
 *
 * <p>How it judges a wait and its load, and how long a turn of handoff lasts, are its
 * {@link MonitorLockSettings.Adaptation}, whose defaults fit the workloads it was measured on. What it
 * decides can be watched through {@link #isWord()}, {@link #isQueued()}, {@link #modeSwitches()} and a
 * {@link LockProbe}'s {@link LockProbe#modeSwitched}.
 */
public final class NumaMonitorLock implements Guard {

    /*
     * Overview
     *
     * Why a monitor. On a striped store (short critical sections, many stripes, work outside the
     * lock) most acquisitions are uncontended or meet an owner that runs on the other carrier for
     * tens of nanoseconds: the best lock there spins briefly while the owner runs and parks
     * otherwise. HotSpot's monitor does that, with its fast path compiled into the caller and its
     * spin inside the VM; the Java locks of this project that do the same counted below it there
     * (the gap is a Java word's release and fields, not its rules; results 2026-11-26-regime-matrix-11).
     * A monitor's weakness is the other regime: on a saturated lock an arriving or spinning thread
     * takes it again and again while the parked ones wait, at the service for seconds. So this lock is
     * the monitor until a caller has waited a bound in time, and then a queue lock for a turn (Fissile
     * locks, Dice & Kogan 2020: a test-and-set lock with a queue lock for its waiters; Go's sync.Mutex:
     * normal mode, starvation mode once a waiter waited 1 ms; the CNA patches for qspinlock: a waiting
     * node is handed the lock after a bound in time; GLK, Antic et al. 2016: per-lock adaptation).
     *
     * Why a word first. A lock no two threads ever meet on (a stripe only one thread uses, a lock kept
     * for the rare clash) pays only its uncontended call, and there a monitor costs more than a Java
     * word taken with a CAS and released with a store (results 2026-11-29-numa-monitor-word). But a
     * Java word loses to the monitor once threads meet on it (above), so the word lasts only until the
     * first meeting: then it is retired for good, as HotSpot once revoked a biased lock, and the lock
     * is the monitor and the queue from there on. A striped store's stripes all meet in their first
     * milliseconds; what stays a word is a lock that is never contended.
     *
     * Parts
     *  - state: what every call reads, mode (WORD, LEAN or QUEUED), owner (the word), epoch and
     *    sampledAt (a sample of the lean acquisitions: one in EPOCH_SAMPLE + 1, picked at random by
     *    the caller's own thread before it enters the monitor, adds one to the epoch and writes its
     *    time, so no other acquisition writes anything for it), and the sampled window and the watch
     *    beside them (written by the same sampled holders, and by the watched thread when it comes
     *    back), in a padded object of its own: its line is written only at a switch, a sampled
     *    acquisition and the watched thread's return, never by the monitor's header, and a sample
     *    writes that one line only.
     *  - monitor: a private object, never exposed; its header is the lean lock; its fields are the
     *    switch count and the queue. No lean acquisition writes either: once the monitor is
     *    inflated, its acquisitions only read the header (the lock word is the ObjectMonitor's), and
     *    a write on the header's line at each one would move that line between carriers at every
     *    handoff.
     *  - marks: with a probe only, what the probed holder writes at each acquisition (busy, runner), in
     *    an object of its own, as SynchronizedGuard keeps them beside its monitor rather than in it.
     *  - queue: a QueuedMode (the queue lock, what only its owners write, and the stragglers' count),
     *    made at the first switch to queued, off the monitor's line; a store whose callers never wait
     *    the bound never makes one.
     *
     * Settings. The bound on a wait and the adaptation are the lock's MonitorLockSettings, fixed at its
     * making; the names in capitals in this Overview are the adaptation's defaults (MonitorLockSettings.Adaptation:
     * sampleEvery is EPOCH_SAMPLE + 1, judgeAfter STARVING_EPOCHS, windowSamples WINDOW_SAMPLES,
     * saturatedPercent SATURATED_PERCENT, firstProbation PROBATION, busyPercent BUSY_PERCENT, and startAsWord
     * the word), and a lock made with other values reads its own in their place. The two that every lean
     * call reads (the sample mask, the epochs a judgement needs) are final fields of the lock, read once a
     * call, as a constant would be; the others are read only by sampled holders and queued owners. The rest
     * of the numbers here (the votes, the drain, the measured releases, the caps, the retirement's spins)
     * are fixed: they bound the mechanisms rather than tune them to a workload.
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
     * the retiring caller. Word calls are not sampled: no caller waits long on the word, since the first
     * that finds it held retires it.
     *    Why the retiring caller waits outside the monitor: holding the monitor while it waited (the
     *    others blocked on it meanwhile), the lock counted measurably below the same lock without a
     *    word; waiting outside it, no measurable difference (results 2026-11-29-numa-monitor-word). Why
     *    the mode is one field: call() reads it once and branches once, so the lean call's path is what
     *    it was before the word.
     *
     * Lean call: read epoch and sampledAt; synchronized (monitor) { if queued (read inside), count
     * itself a straggler, leave and make a queued call; else run; at the end: if this call was sampled,
     * add its hold to the window, one to the epoch and its time to sampledAt; then, if this caller
     * waited the bound, turn queued }. The wait is judged only once the epoch passed the value read at
     * arrival by STARVING_EPOCHS (acquisitions overtook the caller: a whole sample interval lies inside
     * its wait), as the samples' time since arrival, sampledAt now minus sampledAt then: no clock is
     * read for it, the sampled holders read the clock anyway. With a probe that clocks the wait (a
     * caller that arrived while a section ran reads the clock then and once it gets in), that wait
     * itself. A window is WINDOW_SAMPLES sampled holds; saturated when, each standing for EPOCH_SAMPLE
     * + 1 acquisitions, they fill SATURATED_PERCENT of its span: the lock is its threads' bottleneck.
     * Three clock reads per sampled acquisition, one at the watched thread's return, none otherwise; a
     * call that is neither takes a path of its own, without the watch (callLean against
     * callLeanWatched, and the two branches of callProbed's lean call): the watch on every call cost
     * an uncontended call measurably.
     *    Work outside the lock. A sampled holder becomes the watched thread; when it comes back (it
     *    reads itself in the watch at arrival, one read of the line every call reads anyway), it votes:
     *    did it spend OUTSIDE_PERCENT of its sampled hold or more between leaving the monitor and
     *    arriving again? The votes saturate at +-OUTSIDE_VOTES. They choose the kind of turn: unless
     *    they are negative (the threads come straight back: a hot lock) and the lock is saturated, the
     *    turn serves the callers waiting at the switch and ends. Why: queued, each acquisition is a
     *    handoff to a mostly parked virtual thread (many threads, few carriers), a wake-up and a mount
     *    while the lock waits; lean, the running threads pass the monitor between them and each does
     *    its outside work while another holds it, so where threads work outside the lock queued counts
     *    below lean, and on one hot lock with all the work inside queued is the faster (results
     *    2026-11-28-work-outside, 2026-11-27-one-stripe-and-waits). A lock with no votes (new, or its
     *    threads never come back: a request touches a stripe once) is a striped store's.
     *
     * run(Runnable) takes the same paths as call(Supplier), with the section itself: Guard's own run
     * would make a Supplier around it, an allocation a call.
     *
     * Queued call: if this thread holds the queue lock or the monitor already, run inline (a
     * reentrant call; a thread inside a lean section must not wait for the queue lock). Else take
     * the queue lock (when it is not free at once in a turn of the waiting callers, the wait is
     * clocked: a slow path, it parks; a straggler counts itself out once it holds it); if the lock turned lean
     * meanwhile, release it and make a lean call; else run, in the drain (below) inside the monitor too;
     * then the turn's bookkeeping (below), release the queue lock, and while the switch is recent
     * (DRAIN_RELEASES), a virtual thread yields its carrier.
     *
     * Mode switches
     *  - lean -> queued: by the monitor's holder at the end of the section of a caller that waited the
     *    bound (above). It makes the queue lock if there is none yet, starts a turn and opens the
     *    drain, then writes queued (release). Later arrivals go to the queue lock. The drain: callers
     *    that waited in the monitor since before the switch get in one by one, read queued and run
     *    their sections there, and the queue lock's owners run theirs in the monitor too, so the
     *    monitor orders both. A turn of the waiting callers keeps the drain open to its end; a
     *    probation closes it after its first min(DRAIN_RELEASES, probation) releases (its owner, in the
     *    monitor), after which a caller that still gets in from before the switch counts itself a
     *    straggler, leaves (waking the next) and queues. The releasing queued owners' yields give the
     *    drain carriers.
     *    Why the drain runs in the monitor: a caller that waited there at the switch waited longest,
     *    and the monitor wakes them one at a time, each a wake-up and a mount; made to leave and queue
     *    behind everyone who arrived after the switch, at the service on a saturated stripe its wait
     *    was the drain's length and then the queue's, several times the queue lock's own waits.
     *  - queued -> lean, a turn of the waiting callers: by a queued owner that queued after the switch
     *    (not a straggler), at a release after the turn's first min(DRAIN_RELEASES, PROBATION) releases,
     *    when no straggler is left (everyone who waited in the monitor at the switch and got in during
     *    the drain has been served, in the queue lock's order), and either it waited less than the bound
     *    in the queue (the queue no longer holds its callers as long as the lean lock did) or nobody
     *    waits for the queue lock behind it (QueuedMode.waiters: nobody is left to serve in order). Why
     *    the first: where a stripe is saturated (a service with many more clients than the stripe
     *    serves in the bound), every wait, in order or not, is longer than the bound; a turn that ended
     *    once the stragglers were served went lean at once, and lean the longest waits grow without an
     *    order, as the monitor's do. Why an empty queue ends it anyway: a turn whose every owner waited
     *    the bound otherwise lasts until a release finds the queue lock free at once, and while it
     *    lasts every caller, a reader of one word too, waits for a handoff to a parked thread; at the
     *    service under ReadHeavy that turn was the lookups' tail (results 2026-12-07-read-tail).
     *  - queued -> lean, a probation (a saturated lock whose threads come straight back): by a queued
     *    owner at the end of a probation whose measured releases (the last MEASURED_RELEASES, at most
     *    half) held the lock less than BUSY_PERCENT of their span; a busy one starts a probation twice
     *    as long (at most MAX_PROBATION). A switch to queued within fewer lean acquisitions than the
     *    last probation doubles it; a later one starts from PROBATION.
     *  Either way the owner writes queued false (release) after its section, while it holds the queue
     *  lock; a waiter that then gets the queue lock reads it, releases the queue lock and makes a lean
     *  call.
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
     *    a queued one holds the queue lock after reading queued true, and, while the drain is open,
     *    the monitor too; a drained one runs inside the monitor after reading queued true and the
     *    drain open there. Only the monitor's holder writes queued true, only the queue lock's holder
     *    writes it false, each after its section; the drain opens only with queued true, by the
     *    monitor's holder, and closes only by a holder of both. So a lean or drained section never
     *    meets another (the monitor); a queued section that runs in the monitor meets none either;
     *    one that runs outside it read the drain closed, which a holder of the monitor wrote after
     *    every drained section before it, and every caller that gets into the monitor after that
     *    reads it closed (and leaves, a straggler); queued turns true only from inside a lean
     *    section (a call inside it, or its end), with the drain open, so the first queued owner
     *    after that waits for the monitor and starts after that lean section ends, every later one
     *    after it (the queue lock); queued turns false only after the last queued section, and any
     *    caller that enters the monitor after that reads false. The happens-before edges are the
     *    monitor's, the queue lock's, and queued's release and acquire.
     *    // checked by NumaMonitorLockTest.aCallerThatWaitedInTheMonitorAtTheSwitchRunsThereAsDoTheQueuedOwners
     *    // checked by NumaMonitorLockTest.aProbationClosesTheDrainAndItsQueuedOwnersThenRunOutsideTheMonitor
     *    // checked by GuardContractTest.mutualExclusionKeepsNonAtomicCounterExact
     *    // checked by NumaMonitorLockTest.mutualExclusionAcrossModeSwitches
     *    // checked by NumaMonitorLockTests (jcstress: switches racing lean, queued and nested calls)
     *  - The overflow keeps mutual exclusion: its section runs in the monitor, holding the queue lock too,
     *    so it meets no lean section (the monitor) and no queued one (the queue lock); it reads queued in
     *    the monitor while it holds the queue lock, where neither switch can happen but its own. No
     *    deadlock: it waits for the monitor while it holds the queue lock, and no holder of the monitor
     *    waits for the queue lock (a call inside a section runs inline; a straggler leaves the monitor
     *    before it queues).
     *    // checked by NumaMonitorLockTest.probedCallersThatFindASectionRunningWaitInTheQueueLockAndRunInTheirOrder
     *    // checked by GuardContractTest.mutualExclusionKeepsNonAtomicCounterExact (probed, in ProbedGuardContractTest)
     *  - Reentrant in both modes, and no deadlock across a switch: a call from inside a critical
     *    section runs inline, found by the monitor's holder (lean, and the thread in the monitor while
     *    queued: the lean owner that switched, or a caller served in the drain) or the queue lock's.
     *    // checked by GuardContractTest.reentrantCallRunsInlineOnTheSameThread
     *    // checked by NumaMonitorLockTest.aCallInsideALeanSectionRunsInlineWhenTheLockTurnsQueued
     *  - Bounded in time: a caller that waited the bound turns the lock queued, where the queue lock
     *    serves its waiters in order (and its reservation bounds each wait); one that waited less, or
     *    that no STARVING_EPOCHS sampled acquisitions overtook, leaves the lock lean. With a timed probe
     *    the bound holds while the waiter still waits: a caller that arrives while a section runs
     *    announces its arrival (a CAS, if no waiter is announced), and the holder whose release finds
     *    the announced waiter past the bound turns the lock queued; the waiter withdraws once through.
     *    With a probe, a caller that finds a section running waits in the queue lock (the overflow), in
     *    order, so the waits in the monitor's entry list are those of callers that found the lock free
     *    and lost the race. Accepted: one waiter is watched at a time (the next is announced by the next
     *    arrival after it withdraws), and without a probe a caller waits in the monitor's entry list,
     *    where it cannot act before it gets in, and the bound is judged only then.
     *    // checked by NumaMonitorLockTest.theHolderTurnsTheLockQueuedForAnAnnouncedWaiterThatWaitedTheBound
     *    // checked by NumaMonitorLockTest.aCallerThatWaitedTheBoundTurnsTheLockQueued
     *    // checked by NumaMonitorLockTest.aCallerOvertakenForLessThanTheBoundKeepsTheLockLean
     *    // checked by NumaMonitorLockTest.anUnsampledCallThatWaitedTheBoundTurnsTheLockQueued
     *    // checked by NumaMonitorLockTest.aProbedCallerThatWaitedTheBoundTurnsTheLockQueued
     *  - A turn of the waiting callers ends only once no straggler is left, at the release of a caller
     *    that queued after the switch: a straggler counts itself in while it holds the monitor and out
     *    once it holds the queue lock, and the count is read by the queue lock's holder, so no owner
     *    after a straggler's arrival in the queue ends the turn before it is served; nothing runs twice
     *    and no straggler is left waiting (one that finds the lock lean again makes a lean call).
     *    // checked by NumaMonitorLockTest.aTurnOfTheWaitingCallersEndsOnceTheStragglersAreServed
     *  - A turn of the waiting callers goes on while its owners waited the bound in the queue and a
     *    caller waits behind them; it ends at the first release (after the rest above) whose owner waited
     *    less, or after which nobody waits for the queue lock. A waiter counts itself in before it waits
     *    and out once it holds the queue lock, so one that the releasing owner does not see waits for
     *    the release, gets the queue lock, reads lean, releases it and makes a lean call: no wake-up is
     *    lost, nothing runs twice.
     *    // checked by NumaMonitorLockTest.aTurnGoesOnWhileItsOwnersWaitedTheBoundAndACallerWaitsBehind
     *    // checked by NumaMonitorLockTest.aCallerThatWaitedTheBoundKeepsTheTurnGoingWhileAnotherWaitsBehind
     *    // checked by NumaMonitorLockTests (jcstress: a turn's end racing a straggler and a lean call)
     *    // checked by NumaMonitorLockTests (jcstress: a turn's end at an empty queue racing a waiter)
     *  - On a saturated lock whose threads come straight back, the turn is a probation: it ends after a
     *    probation that was not busy; a busy one doubles; a switch back soon after doubles it too, a
     *    later one starts afresh.
     *    // checked by NumaMonitorLockTest.aQueuedLockTurnsLeanAfterAProbationThatWasNotBusy
     *    // checked by NumaMonitorLockTest.aBusyProbationDoublesAndAnIdleOneTurnsLean
     *    // checked by NumaMonitorLockTest.aBusyQueuedLockStaysQueuedForADoubledProbation
     *    // checked by NumaMonitorLockTest.returnsAfterWorkOutsideTheLockVoteOutsideAndStraightBackInside
     *  - A virtual thread never spins unboundedly: the monitor's spin is HotSpot's, bounded and
     *    adaptive; the queue lock spins only while its owner runs, and at most a bound; a retiring
     *    caller spins RETIRE_SPINS times and then parks, and the callers behind it wait in Object.wait.
     *
     * Accepted races
     *  - The wait is estimated from the samples: it starts at the sample before the caller's arrival,
     *    so a caller that arrived long after the last sample (the lock idle meanwhile) and was then
     *    overtaken STARVING_EPOCHS sampled times counts the idle time too, and may turn the lock queued
     *    early: one turn, which serves the callers waiting then and ends. The samples also count the time
     *    a caller's carrier was stopped (the host took its CPU) or it waited for a carrier once woken.
     *  - A caller blocked in the monitor at the switch that gets in only after the turn ended (its
     *    carrier busy through the whole drain) finds the lock lean and runs there; if it waited the
     *    bound, its own section turns the lock queued again.
     *  - The watched thread stamps when it left the monitor after leaving it (a monitor's release that
     *    wakes a waiter is not work outside): a sampled holder that got in meanwhile may have set the
     *    watch, and then its vote uses this stamp, one vote in error. The watch is read at arrival
     *    without the monitor; the vote is cast inside it, only if the watch still names the caller.
     *  - A caller that read "lean" may enter the monitor after the switch (it then leaves and queues, a
     *    straggler), and one that read "queued" may take the queue lock after the switch back (it then
     *    releases it and enters the monitor).
     *
     * Known limit: a brand-new lock met by a burst of CPU-bound virtual threads turns queued only once a
     * caller that waited the bound gets in, and by then the threads that kept the carriers may have done
     * most of their work: a monitor's waiters cannot be seen until they get in (results
     * 2026-11-27-numa-monitor-run).
     *
     * The overflow (with a probe: its marks tell a caller that a section is running). A lean caller that
     * arrives while a section runs does not wait in the monitor's entry list: it takes the queue lock (made
     * then if there is none yet), in order behind the others that found the lock busy, and then the
     * monitor, so it meets there only the callers that found the lock free. Why: the monitor wakes its
     * waiters one at a time, and a woken virtual thread waits for a carrier while running threads take the
     * monitor again and again, so on a saturated stripe a waiter in the entry list was overtaken for
     * hundreds of milliseconds, and a switch to queued could serve the waiters there only one scheduling
     * round each; the queue lock hands over in order to a successor it woke ahead. An overflow caller that
     * waited the bound turns the lock queued at its release, as a lean one does; one that finds the lock
     * queued once it holds both locks is a queued owner and releases as one. Without a probe a lean call
     * cannot tell a running section from a free lock without a write of its own, so it waits in the monitor.
     *
     * Probe (optional; none: the lean call is the bare synchronized block and the sampled epoch):
     * as SynchronizedGuard, a call waited when a critical section was running as it arrived (the
     * marks' busy, read at arrival, written by the holder); modeSwitched by the switching
     * owner; the queue lock itself reports nothing. The probed call runs its section in its own frame
     * in every mode, so it allocates nothing; a call inside a probed section runs inline at once (the
     * holder's runner is itself), in any mode.
     *
     * Probed, the word path is the same, its section in the probed frame (the runner mark finds a call
     * inside it, as in the other modes). The retirement is not a mode switch: modeSwitches() and the
     * probe count lean-queued switches only, and every stripe of a store retires its word once.
     *
     * Memory: the guard, its padded state and its monitor, at most 256 bytes (NumaMonitorLockTest's
     * layout test), and with a probe its marks; the queue lock, hundreds of bytes, only for a lock on
     * which a caller once waited the bound.
     */

    /**
     * Lean: one acquisition in EPOCH_SAMPLE + 1 (a power of two) is sampled: the epoch, its time and its hold. The
     * default of {@link MonitorLockSettings.Adaptation#sampleEvery()}, minus one; a lock reads its own.
     */
    static final int EPOCH_SAMPLE = 63;

    /**
     * Lean: a caller's wait is judged only once the epoch passed the value it read at arrival by this much, so
     * that at least one whole sample interval lies inside the wait and the wait is known to about one interval.
     * The default of {@link MonitorLockSettings.Adaptation#judgeAfter()}; a lock reads its own.
     */
    static final int STARVING_EPOCHS = 2;

    /**
     * The default bound on a wait: a caller that waited this long turns the lock to in-order handoff (queued),
     * as Go's {@code sync.Mutex} turns to its starvation mode after a waiter waited 1 ms.
     */
    public static final Duration DEFAULT_HANDOFF_AFTER = Duration.ofMillis(1);

    /**
     * Lean: the sampled holds of this many sampled acquisitions make one window of the busy share. The default of
     * {@link MonitorLockSettings.Adaptation#windowSamples()}; a lock reads its own.
     */
    static final int WINDOW_SAMPLES = 16;

    /**
     * Lean: a window whose sampled holds, each standing for EPOCH_SAMPLE + 1 acquisitions, filled this share
     * (percent) of its span is saturated; after two saturated windows in a row, a lock whose threads come straight
     * back turns queued for a probation rather than for one turn. A counting stripe's windows fill far less than
     * this, one hot lock's with all the work inside about as much or more. The default of
     * {@link MonitorLockSettings.Adaptation#saturatedPercent()}; a lock reads its own.
     */
    static final int SATURATED_PERCENT = 75;

    /**
     * Lean: a watched thread (the last sampled holder) that comes back after work outside the lock of at least
     * this share (percent) of its sampled hold votes that the lock's threads work outside it.
     */
    static final int OUTSIDE_PERCENT = 25;

    /**
     * Lean: and at least this long: a return within it is straight back, whatever the hold (on one hot lock with
     * short sections a return often takes half the hold or more).
     */
    static final long OUTSIDE_MIN_NANOS = 250L;

    /** Lean: the votes saturate at plus or minus this many. */
    static final int OUTSIDE_VOTES = 8;

    /**
     * Queued: the first probation, in queued releases; it doubles while the lock stays busy. The default of
     * {@link MonitorLockSettings.Adaptation#firstProbation()}; a lock reads its own.
     */
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
     * threads' bottleneck fills less of the span than lean: a hot lock with all the work inside fills far more
     * than this, a counting stripe less; at twice this the hot lock turned lean after about half its probations.
     * The default of {@link MonitorLockSettings.Adaptation#busyPercent()}; a lock reads its own.
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

    /** enterQueued: as OWNED, after a wait in the queue of the bound or longer, in a turn of the waiting callers. */
    private static final int OWNED_AFTER_THE_BOUND = 3;

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
    private final LockContext context; // the queue lock's nodes and carrier count
    private final Duration reserveAfter; // the queue lock's reservation threshold
    private final LockProbe probe; // null without one
    private final Marks marks; // with a probe only: what the probed holder writes, off the monitor's line
    private final boolean hearsFast; // probe != null && probe.hearsFastPath()
    private final boolean timed; // probe != null && probe.timed()
    private final boolean releaseHeard; // probe != null && probe.hearsReleaseAfterWait()
    private final int sampleMask; // read by every lean call: adaptation.sampleEvery() - 1
    private final int starvingEpochs; // read by every lean call: adaptation.judgeAfter()
    private final long handoffAfterNanos; // read by a lean call that waited: the bound on a wait
    private final MonitorLockSettings.Adaptation adaptation; // the windows' and the probations' settings
    private volatile Thread retirer; // the caller retiring the word, while it waits for the word; read by its holder

    /** A lock whose queued mode is a {@link NumaHandoffLock} over the context's nodes; the defaults, no probe. */
    public NumaMonitorLock(LockContext context) {
        this(context, NumaMcsLock.DEFAULT_RESERVE_AFTER, MonitorLockSettings.DEFAULTS, LockProbe.NONE);
    }

    /**
     * A lock whose queued mode is a {@link NumaHandoffLock} over the context's nodes with the reservation
     * threshold {@code reserveAfter} ({@link QueueLockSettings#reserveAfter()}), that turns queued once a caller
     * waited {@link MonitorLockSettings#handoffAfter()} and adapts as {@link MonitorLockSettings#adaptation()}
     * says, reporting to {@code probe} ({@link LockProbe#NONE} for none): its acquisitions in every mode and its
     * mode switches.
     */
    public NumaMonitorLock(LockContext context, Duration reserveAfter, MonitorLockSettings settings, LockProbe probe) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(settings, "settings");
        this.adaptation = settings.adaptation();
        this.sampleMask = adaptation.sampleEvery() - 1;
        this.starvingEpochs = adaptation.judgeAfter();
        this.handoffAfterNanos = QueueLockFields.saturatedNanos(settings.handoffAfter());
        this.context = context;
        this.reserveAfter = Objects.requireNonNull(reserveAfter, "reserveAfter");
        this.probe = LockProbe.orNull(Objects.requireNonNull(probe, "probe"));
        this.hearsFast = this.probe != null && this.probe.hearsFastPath();
        this.timed = this.probe != null && this.probe.timed();
        this.releaseHeard = this.probe != null && this.probe.hearsReleaseAfterWait();
        this.marks = this.probe != null ? new Marks() : null;
        state.sampledAt = System.nanoTime(); // a first waiter's wait is then counted from no earlier than this
        if (adaptation.startAsWord()) {
            state.mode = WORD;
        } else {
            state.owner = RETIRED; // lean from the start: no word to retire at a first meeting
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
        return mode == QUEUED ? callQueued(monitor, criticalSection, false) : callLean(monitor, criticalSection);
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
            runQueued(monitor, criticalSection, false);
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
        long since = st.sampledAtOpaque(); // the time of that epoch's sample, or of a later one
        synchronized (m) {
            if (!st.queuedAcquire()) { // turned lean by a queued owner, outside the monitor: acquire
                try {
                    return criticalSection.get();
                } finally {
                    leanReleasing(m, st, seen, since);
                }
            }
            if (servesInMonitor(m)) { // it waited in the monitor while the lock turned queued: served here
                return criticalSection.get();
            }
        }
        // After the drain: it leaves the monitor (whose release wakes the next one waiting there) and queues
        // with the rest, a straggler of the turn.
        return callQueued(m, criticalSection, true);
    }

    /**
     * As callLean, for a call that is sampled or made by the watched thread: its clock reads, its vote and the
     * watch, kept off the other calls' path.
     */
    private <T> T callLeanWatched(Monitor m, Supplier<T> criticalSection, boolean sampled) {
        State st = state;
        int seen = st.epochAcquire();
        long since = st.sampledAtOpaque();
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
                    leanReleasing(m, st, starved(st, seen, since), acquiredAt, sampled, me, arrivedAt);
                }
            } else if (servesInMonitor(m)) {
                return criticalSection.get(); // neither sampled nor the watch's: a queued acquisition
            }
        }
        if (ran) {
            if (sampled) {
                st.left(); // the watched thread now, out of the monitor
            }
            return result;
        }
        return callQueued(m, criticalSection, true);
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
        long since = st.sampledAtOpaque();
        synchronized (m) {
            if (!st.queuedAcquire()) {
                try {
                    criticalSection.run();
                    return;
                } finally {
                    leanReleasing(m, st, seen, since);
                }
            }
            if (servesInMonitor(m)) {
                criticalSection.run();
                return;
            }
        }
        runQueued(m, criticalSection, true);
    }

    /** As callLeanWatched, for a Runnable. */
    private void runLeanWatched(Monitor m, Runnable criticalSection, boolean sampled) {
        State st = state;
        int seen = st.epochAcquire();
        long since = st.sampledAtOpaque();
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
                    leanReleasing(m, st, starved(st, seen, since), acquiredAt, sampled, me, arrivedAt);
                }
            } else if (servesInMonitor(m)) {
                criticalSection.run();
                return;
            }
        }
        if (!ran) {
            runQueued(m, criticalSection, true);
        } else if (sampled) {
            st.left();
        }
    }

    /**
     * The monitor's holder, a caller that read lean and found the lock queued once it got in: whether it runs its
     * section here (the drain), or leaves and queues, one more straggler of the turn (QueuedMode.servesInMonitor).
     */
    private static boolean servesInMonitor(Monitor m) {
        return m.modeAcquire().servesInMonitor(Thread.currentThread());
    }

    /**
     * The monitor's holder at the end of a lean section that was neither sampled nor the watched thread's (the
     * epoch was {@code seen} at its arrival, its sample taken at {@code since}): the switch to queued if this
     * caller waited the bound.
     */
    private void leanReleasing(Monitor m, State st, int seen, long since) {
        if (starved(st, seen, since)) {
            turnQueued(m);
        }
    }

    /**
     * The monitor's holder: whether its caller, which read the epoch {@code seen} and the sample time
     * {@code since} at arrival, waited the bound: the epoch passed {@code seen} by STARVING_EPOCHS or more
     * (acquisitions overtook it; the clock is not read for a caller that did not wait) and the samples taken
     * since then span the bound. The estimate reads no clock: the sampled holders read it.
     */
    private boolean starved(State st, int seen, long since) {
        return st.epoch - seen >= starvingEpochs && st.sampledAt - since >= handoffAfterNanos;
    }

    /**
     * As leanReleasing, for a call that was sampled ({@code sampled}, acquired at {@code acquiredAt}) or the
     * watched thread's ({@code me}, arrived at {@code arrivedAt}, else 0): its vote, its sample, then the switch
     * to queued if this caller waited the bound ({@code starved}, judged before this call's own sample).
     */
    private void leanReleasing(
            Monitor m, State st, boolean starved, long acquiredAt, boolean sampled, Thread me, long arrivedAt) {
        if (arrivedAt != 0L && st.watch == me) {
            st.cameBack(arrivedAt);
        }
        if (sampled) {
            st.sampled(acquiredAt, sampleMask + 1, adaptation, me);
        }
        if (starved) {
            turnQueued(m);
        }
    }

    /**
     * Whether this lean call is sampled: one in {@code sampleMask + 1}, picked by the caller's own random
     * (its thread's {@link ThreadLocalRandom} seed), before it enters the monitor. Nothing shared is written
     * for it: a count in the monitor object (the pick before) made every lean acquisition write the
     * monitor's line, which an inflated monitor's acquisitions otherwise only read (the lock word is then
     * the ObjectMonitor's), one more line to move between carriers at each handoff, which cost striped
     * counting measurably more than this draw costs an uncontended call.
     */
    private static boolean picked(int sampleMask) {
        return (ThreadLocalRandom.current().nextInt() & sampleMask) == 0;
    }

    /**
     * A queued call; {@code straggler}: the caller read lean at arrival and found the lock queued in the monitor
     * (counted by straggled).
     */
    private <T> T callQueued(Monitor m, Supplier<T> criticalSection, boolean straggler) {
        QueuedMode mode = m.modeAcquire();
        int entry = enterQueued(m, mode, straggler, 0L);
        if (entry == INLINE) {
            return criticalSection.get();
        }
        if (entry == TURNED_LEAN) {
            return callLean(m, criticalSection);
        }
        boolean waitedLong = entry == OWNED_AFTER_THE_BOUND;
        long acquiredAt = mode.measuring() ? System.nanoTime() : 0L;
        try {
            if (mode.throughMonitor) { // the drain: with the callers served in the monitor
                synchronized (m) {
                    try {
                        return criticalSection.get();
                    } finally {
                        mode.ranInMonitor();
                    }
                }
            }
            return criticalSection.get();
        } finally {
            exitQueued(m, mode, acquiredAt, straggler, waitedLong);
        }
    }

    /** As callQueued, for a Runnable. */
    private void runQueued(Monitor m, Runnable criticalSection, boolean straggler) {
        QueuedMode mode = m.modeAcquire();
        int entry = enterQueued(m, mode, straggler, 0L);
        if (entry == INLINE) {
            criticalSection.run();
        } else if (entry == TURNED_LEAN) {
            runLean(m, criticalSection);
        } else {
            boolean waitedLong = entry == OWNED_AFTER_THE_BOUND;
            long acquiredAt = mode.measuring() ? System.nanoTime() : 0L;
            try {
                if (mode.throughMonitor) {
                    synchronized (m) {
                        try {
                            criticalSection.run();
                        } finally {
                            mode.ranInMonitor();
                        }
                    }
                } else {
                    criticalSection.run();
                }
            } finally {
                exitQueued(m, mode, acquiredAt, straggler, waitedLong);
            }
        }
    }

    /**
     * A queued call's entry: OWNED (or OWNED_AFTER_THE_BOUND), INLINE or TURNED_LEAN; a straggler is served from
     * here on, whichever; {@code askedAt}: the call's arrival if it clocked it, else 0. The first queued owner after
     * the switch runs its section in the monitor while the drain is open (callQueued).
     */
    private int enterQueued(Monitor m, QueuedMode mode, boolean straggler, long askedAt) {
        NumaHandoffLock q = mode.lock;
        if (q.isHeldByCurrentThread() || mode.inMonitor == Thread.currentThread() && Thread.holdsLock(m)) {
            // Reentrant: the caller holds the queue lock, or holds the monitor in a lean section that went on
            // after a call inside it turned the lock queued, or in a section served there in the drain.
            if (straggler) {
                mode.served();
            }
            return INLINE;
        }
        boolean waitedLong = false;
        if (!q.tryLock()) { // as lock()'s own first step: the word free and not reserved
            // A wait in the queue, the slow path: in a turn of the waiting callers it is clocked (from the call's
            // arrival if the caller clocked that). A stale read of waiting costs a clock read, or a turn that
            // ends at a release whose owner waited the bound (the next long lean wait turns the lock again).
            long from = askedAt != 0L ? askedAt : mode.waiting ? System.nanoTime() : 0L;
            mode.lockCounted();
            waitedLong = from != 0L && System.nanoTime() - from >= handoffAfterNanos;
        }
        if (straggler) {
            mode.served(); // while it holds the queue lock: no owner after it can find it still counted
        }
        if (!state.queuedAcquire()) { // turned lean while this thread queued
            q.unlock();
            return TURNED_LEAN;
        }
        return waitedLong ? OWNED_AFTER_THE_BOUND : OWNED;
    }

    /**
     * The queue lock's owner after its section (acquired at {@code acquiredAt} if measured, else 0; a straggler
     * of the turn or not): the turn's bookkeeping, the switch to lean at its end, the release, and while the
     * switch to queued is recent a virtual thread's yield.
     */
    private void exitQueued(Monitor m, QueuedMode mode, long acquiredAt, boolean straggler, boolean waitedLong) {
        boolean draining = mode.draining();
        try {
            if (mode.released(acquiredAt, straggler, waitedLong)) {
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
        if (arrivedBusy) {
            probe.wantsWaitNow(); // the start of a wait (a probe may begin its record there); every wait is reported
        }
        boolean report = arrivedBusy || hearsFast;
        boolean clocked = timed || arrivedBusy;
        long asked = clocked ? System.nanoTime() : 0L;
        long began = 0L;
        long ended = 0L;
        State st = state;
        if (arrivedBusy) {
            marks.announce(asked); // the slow path: the holders watch its wait (see waitedTheBound)
        }
        boolean straggler = false; // it read lean and found the lock queued in the monitor
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
                if (arrivedBusy
                        && !st.queuedAcquire()) { // arrivedBusy first: no second read of queued on the fast path
                    // The overflow: a caller that found a section running waits in the queue lock, in order,
                    // and then takes the monitor, rather than in the monitor's entry list (see the Overview).
                    QueuedMode mode = queuedMode(m);
                    if (!mode.lock.tryLock()) {
                        mode.lockCounted();
                    }
                    boolean queuedNow = false;
                    try {
                        synchronized (m) {
                            queuedNow = st.queuedAcquire(); // stable here: this thread holds both locks
                            began = enterProbed(marks, me, report, clocked, true, asked);
                            try {
                                return criticalSection.get();
                            } finally {
                                ended = exitProbed(marks);
                                if (queuedNow) {
                                    mode.ranInMonitor();
                                } else if (waitedTheBound(st, true, asked, began, ended, 0, 0L)) {
                                    turnQueued(m);
                                }
                            }
                        }
                    } finally {
                        if (queuedNow) { // the lock turned queued while it waited: a queued owner's release
                            exitQueued(m, mode, 0L, false, began - asked >= handoffAfterNanos);
                        } else {
                            mode.lock.unlock();
                        }
                    }
                }
                if (!st.queuedAcquire()) {
                    boolean sampled = picked(sampleMask);
                    int seen = st.epochAcquire();
                    long since = st.sampledAtOpaque();
                    if (!sampled && st.watchOpaque() != me) { // as callLean: the path without the watch
                        synchronized (m) {
                            if (!st.queuedAcquire()) {
                                began = enterProbed(marks, me, report, clocked, arrivedBusy, asked);
                                try {
                                    return criticalSection.get();
                                } finally {
                                    ended = exitProbed(marks);
                                    if (waitedTheBound(st, arrivedBusy, asked, began, ended, seen, since)) {
                                        turnQueued(m);
                                    }
                                }
                            }
                            if (servesInMonitor(m)) {
                                began = enterProbed(marks, me, report, clocked, arrivedBusy, asked);
                                try {
                                    return criticalSection.get();
                                } finally {
                                    ended = exitProbed(marks);
                                }
                            }
                            straggler = true;
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
                                    boolean starved = waitedTheBound(st, arrivedBusy, asked, began, ended, seen, since);
                                    leanReleasing(m, st, starved, acquiredAt, sampled, me, arrivedAt);
                                }
                            } else if (servesInMonitor(m)) {
                                began = enterProbed(marks, me, report, clocked, arrivedBusy, asked);
                                try {
                                    return criticalSection.get();
                                } finally {
                                    ended = exitProbed(marks);
                                }
                            } else {
                                straggler = true;
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
                boolean stragglerHere = straggler;
                straggler = false; // served from here on: enterQueued counts it out
                int entry = enterQueued(m, mode, stragglerHere, clocked ? asked : 0L);
                if (entry == INLINE) {
                    report = false;
                    return criticalSection.get();
                }
                if (entry == OWNED || entry == OWNED_AFTER_THE_BOUND) {
                    boolean waitedLong = entry == OWNED_AFTER_THE_BOUND;
                    long acquiredAt = mode.measuring() ? System.nanoTime() : 0L;
                    try {
                        if (mode.throughMonitor) {
                            synchronized (m) {
                                began = enterProbed(marks, me, report, clocked, arrivedBusy, asked);
                                try {
                                    return criticalSection.get();
                                } finally {
                                    ended = exitProbed(marks);
                                    mode.ranInMonitor();
                                }
                            }
                        }
                        began = enterProbed(marks, me, report, clocked, arrivedBusy, asked);
                        try {
                            return criticalSection.get();
                        } finally {
                            ended = exitProbed(marks);
                        }
                    } finally {
                        exitQueued(m, mode, acquiredAt, stragglerHere, waitedLong);
                    }
                }
                // TURNED_LEAN: the lock turned lean while this caller queued
            }
        } finally {
            if (arrivedBusy) {
                marks.withdraw(asked);
            }
            if (report && (timed || arrivedBusy && releaseHeard)) { // after the release: not in the section
                probe.released(arrivedBusy, began - asked, (timed ? ended : System.nanoTime()) - began);
            }
        }
    }

    /**
     * The probed lean holder at its release ({@code ended}, if timed): whether its caller waited the bound (its own
     * wait if it arrived while a section ran, else the sampled holders' estimate), or, on a timed lock, the waiter
     * the holders watch has waited it and waits still. Why the watched waiter: a caller in the monitor's entry
     * list cannot act before it gets in, and on a saturated stripe that may be seconds after the bound.
     */
    private boolean waitedTheBound(
            State st, boolean arrivedBusy, long asked, long began, long ended, int seen, long since) {
        if (arrivedBusy ? began - asked >= handoffAfterNanos : starved(st, seen, since)) {
            return true;
        }
        return timed && marks.announcedWaited(ended, handoffAfterNanos);
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

    /**
     * The monitor's holder, lean, for a caller that waited the bound: queued, for a turn that serves the callers
     * waiting now, or for a probation on a saturated lock whose threads come straight back.
     */
    private void turnQueued(Monitor m) {
        State st = state;
        if (st.queuedAcquire()) {
            return; // queued already, by a call inside this one
        }
        boolean fresh = m.modeAcquire() == null;
        QueuedMode mode = queuedMode(m);
        long lean = fresh ? Long.MAX_VALUE : (long) (st.epoch - mode.epochAtLean) * (sampleMask + 1); // since made
        mode.startTurn(lean, !st.outside() && st.saturatedWindows >= 2);
        mode.inMonitor = Thread.currentThread();
        st.saturatedWindows = 0;
        switched(m, true);
    }

    /**
     * The queued mode, made by the first caller that needs it: the monitor's holder at the first switch, or a
     * caller of the overflow (a CAS, so two that race make one).
     */
    private QueuedMode queuedMode(Monitor m) {
        QueuedMode mode = m.modeAcquire();
        if (mode == null) {
            QueuedMode made =
                    new QueuedMode(new NumaHandoffLock(context.nodes(), reserveAfter, context.carriers()), adaptation);
            mode = m.casMode(made) ? made : m.modeAcquire();
        }
        return mode;
    }

    /** The monitor's holder: the lock is queued or lean from here on. */
    private void switched(Monitor m, boolean queued) {
        m.countSwitch();
        state.setQueuedRelease(queued);
        if (probe != null) {
            probe.modeSwitched(queued);
        }
    }

    /** The bound on a wait: a caller that waited this long turns the lock queued. */
    public Duration handoffAfter() {
        return Duration.ofNanos(handoffAfterNanos);
    }

    /** How this lock adapts: the {@link MonitorLockSettings#adaptation()} it was made with. */
    public MonitorLockSettings.Adaptation adaptation() {
        return adaptation;
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
     * The queued mode: the queue lock and its turn's bookkeeping, written only by a thread that holds the queue
     * lock or the monitor (a queued owner, or the lean owner that switches, before any caller can reach the
     * queue lock), off the monitor's line; and the stragglers' count, which callers in the monitor add to and
     * queue lock owners take from.
     */
    static final class QueuedMode {
        private static final VarHandle STRAGGLERS;
        private static final VarHandle WAITERS;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                STRAGGLERS = lookup.findVarHandle(QueuedMode.class, "stragglers", int.class);
                WAITERS = lookup.findVarHandle(QueuedMode.class, "waiters", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final NumaHandoffLock lock;
        private final MonitorLockSettings.Adaptation adaptation;
        // Under the queue lock (or written by the switching lean owner before queued, release):
        int releases; // queued releases of this turn
        int turn; // a probation's releases; a turn of the waiting callers: the releases it lasts at least
        int probation; // the releases of the next: from adaptation.firstProbation(), doubling while the lock stays busy
        long measuredFrom; // nanoTime when this probation's measured releases began (never 0 then); 0: not yet
        long heldNanos; // measured holds, each at most HOLD_CAP_NANOS
        int epochAtLean; // the monitor's epoch when the lock last turned lean
        int sinceSwitch; // queued releases since the switch to queued, up to DRAIN_RELEASES
        boolean waiting; // this turn serves the callers waiting at the switch (else it is a probation); also read
        // plain by callers that wait for the queue lock, to clock their wait (see enterQueued)
        Thread inMonitor; // the last thread that ran or went on running a section in the monitor while the lock
        // is queued (the lean owner that switched, or a caller served there), plain: read by every queued call, for
        // reentrancy (only that thread reads itself there; a stale value costs it a Thread.holdsLock)
        boolean throughMonitor; // the drain: queued owners run their sections in the monitor too, and a caller
        // that waited in the monitor since before the switch runs its section there once it gets in. Written
        // only by a thread that holds the monitor: true by the lean owner that switches (before queued, release),
        // false by a queued owner at the drain's end (below); read by the monitor's holders and the queue lock's
        // Atomic: +1 by a caller in the monitor that read lean and found the lock queued, -1 by it once it holds
        // the queue lock (or runs inline); read by queued owners at a turn's end. Never negative.
        int stragglers;
        // Atomic: +1 by a caller before it waits for the queue lock (its tryLock failed), -1 once it holds it; read
        // by queued owners at a turn's end. Never negative.
        int waiters;

        QueuedMode(NumaHandoffLock lock, MonitorLockSettings.Adaptation adaptation) {
            this.lock = lock;
            this.adaptation = adaptation;
            this.probation = adaptation.firstProbation();
        }

        /**
         * The lean owner at the switch to queued, {@code leanAcquisitions} (about) after the lock last turned
         * lean: a turn for the callers waiting now, or ({@code probationTurn}) a probation, twice as long as the
         * last when the lock starved a waiter again within less lean than that, else the first one.
         */
        void startTurn(long leanAcquisitions, boolean probationTurn) {
            if (probationTurn) {
                probation = !waiting && leanAcquisitions < turn
                        ? (int) Math.min(MAX_PROBATION, 2L * probation)
                        : adaptation.firstProbation();
            }
            waiting = !probationTurn;
            sinceSwitch = 0;
            throughMonitor = true;
            nextProbation();
            if (waiting) {
                turn = Math.min(DRAIN_RELEASES, adaptation.firstProbation());
            }
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

        /**
         * The monitor's holder, a caller that read lean and found the lock queued once it got in: whether it runs
         * its section here, in the drain (recorded as the thread in the monitor), or leaves and queues, counted
         * as a straggler of the turn, which then does not end before it has been served.
         */
        boolean servesInMonitor(Thread me) {
            if (throughMonitor) {
                inMonitor = me;
                return true;
            }
            straggled();
            return false;
        }

        /**
         * A queued owner in the monitor, at its section's end: a probation's drain ends after its first
         * min(DRAIN_RELEASES, probation) releases, a turn of the waiting callers' with the turn. Why the
         * probation's ends: on one hot lock a probation lasts thousands of releases, and each in the monitor
         * would pay its enter and exit; the callers that were in the monitor at the switch are through by
         * then, and one that is not leaves and queues, a straggler.
         */
        void ranInMonitor() {
            if (!waiting && sinceSwitch >= Math.min(DRAIN_RELEASES, adaptation.firstProbation())) {
                throughMonitor = false;
            }
        }

        /** Whether this queued release's hold is to be measured (read at the acquisition). */
        boolean measuring() {
            return measuredFrom != 0L;
        }

        /** A caller in the monitor found the lock queued after it read lean: one straggler more. */
        void straggled() {
            STRAGGLERS.getAndAdd(this, 1);
        }

        /** A straggler holds the queue lock (or runs inline): one fewer. */
        void served() {
            STRAGGLERS.getAndAdd(this, -1);
        }

        /**
         * The slow path of taking the queue lock, after a failed tryLock: the wait, counted in {@code waiters}
         * while it lasts, so that a releasing owner can tell whether anyone waits behind it.
         */
        void lockCounted() {
            WAITERS.getAndAdd(this, 1);
            try {
                lock.lock();
            } finally {
                WAITERS.getAndAdd(this, -1);
            }
        }

        /** Whether a caller waits for the queue lock now (read by its owner, at a release). */
        boolean hasWaiters() {
            return (int) WAITERS.getVolatile(this) != 0;
        }

        /** The stragglers not yet served: a turn of the waiting callers ends only once none is left. */
        int stragglers() {
            return (int) STRAGGLERS.getVolatile(this);
        }

        /**
         * At a queued release (its hold measured from {@code acquiredAt}, unless 0; by a straggler of the turn or
         * not; {@code waitedLong}: its caller waited the bound in the queue): whether to turn lean now. A turn of
         * the waiting callers ends at a release, after its first {@code turn}, by a caller that queued after the
         * switch, while no straggler is left, and either it did not wait the bound there (the queue no longer makes
         * its callers wait as long as the lean lock did) or nobody waits for the queue lock behind it (there is no
         * one left to serve in order): everyone who waited at the switch has been served. A probation ends after
         * its releases unless busy, then doubles.
         */
        boolean released(long acquiredAt, boolean straggler, boolean waitedLong) {
            if (waiting) {
                return ++releases >= turn && !straggler && stragglers() == 0 && (!waitedLong || !hasWaiters());
            }
            if (acquiredAt != 0L) {
                heldNanos += Math.min(HOLD_CAP_NANOS, System.nanoTime() - acquiredAt);
            }
            int done = ++releases;
            if (done >= turn) {
                long span = System.nanoTime() - measuredFrom;
                if (measuredFrom != 0L && 100L * heldNanos >= (long) adaptation.busyPercent() * span) {
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
     * of that line per handoff, measurably below synchronized on striped counting.
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
        private static final VarHandle SAMPLED_AT;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                MODE = lookup.findVarHandle(StateFields.class, "mode", byte.class);
                EPOCH = lookup.findVarHandle(StateFields.class, "epoch", int.class);
                WATCH = lookup.findVarHandle(StateFields.class, "watch", Thread.class);
                WATCH_RELEASED = lookup.findVarHandle(StateFields.class, "watchReleased", int.class);
                OWNER = lookup.findVarHandle(StateFields.class, "owner", Object.class);
                RETIRING = lookup.findVarHandle(StateFields.class, "retiring", boolean.class);
                SAMPLED_AT = lookup.findVarHandle(StateFields.class, "sampledAt", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        // LEAN, QUEUED or WORD. Release, by the switching owner (lean: the monitor's; queued: the queue lock's; word:
        // the retiring caller, in the monitor, once); acquire, by every call before it picks a path.
        byte mode;
        int epoch; // release, by the monitor's holder at a sampled acquisition; acquire, by every lean call before it
        // enters the monitor (a plain or opaque read may be moved into the synchronized block, after the wait)
        long sampledAt; // opaque, by the monitor's holder at a sampled acquisition, before the epoch; opaque, by every
        // lean call after the epoch: the sample's nanoTime (at the start: the lock's making)
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

        long sampledAtOpaque() {
            return (long) SAMPLED_AT.getOpaque(this);
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
        void sampled(long acquiredAt, int every, MonitorLockSettings.Adaptation t, Thread holder) {
            long now = System.nanoTime();
            SAMPLED_AT.setOpaque(this, now);
            EPOCH.setRelease(this, epoch + 1); // after its time: a caller that reads this epoch reads that time
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
     * 44 bytes after the header (an int fills the gap after it, so no later field does): no field of the
     * object before the state shares its fields' line, which starts at least 56 bytes into the state.
     */
    abstract static class StateLead {
        int p00;
        long p01, p02, p03, p04, p05;
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
        QueuedMode mode; // CAS from null, once, by the first switch or overflow caller; acquire, by queued calls

        long switchesOpaque() {
            return (long) SWITCHES.getOpaque(this);
        }

        QueuedMode modeAcquire() {
            return (QueuedMode) MODE.getAcquire(this);
        }

        /** The queued mode made, if there was none yet (from null to {@code made}, volatile). */
        boolean casMode(QueuedMode made) {
            return MODE.compareAndSet(this, null, made);
        }

        /** The switching owner (either lock's holder: switches never race): one switch more. */
        void countSwitch() {
            SWITCHES.setOpaque(this, switches + 1);
        }
    }

    /** With a probe: what the probed holder writes at each acquisition, in an object of its own. */
    static final class Marks {
        private static final VarHandle BUSY;
        private static final VarHandle WAITER_SINCE;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                BUSY = lookup.findVarHandle(Marks.class, "busy", boolean.class);
                WAITER_SINCE = lookup.findVarHandle(Marks.class, "waiterSince", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        boolean busy; // opaque, by the holder at its section's start and end; opaque, by arrivals
        Thread runner; // plain, holder only: the thread in the outermost critical section
        long waiterSince; // 0, or the arrival (nanoTime) of a caller that arrived while a section ran: CAS from 0 by
        // it, CAS back to 0 by it once it is through; opaque, by the timed holders at their release

        /** A probed caller that arrived at {@code asked} while a section ran: the watched waiter, if none is. */
        void announce(long asked) {
            if (asked != 0L && (long) WAITER_SINCE.getOpaque(this) == 0L) {
                WAITER_SINCE.compareAndSet(this, 0L, asked);
            }
        }

        /** That caller, through: no longer the waiter the holders watch, if it was. */
        void withdraw(long asked) {
            if (asked != 0L && (long) WAITER_SINCE.getOpaque(this) == asked) {
                WAITER_SINCE.compareAndSet(this, asked, 0L);
            }
        }

        /** A timed holder at its release at {@code now}: whether the waiter it watches has waited {@code bound}. */
        boolean announcedWaited(long now, long bound) {
            long since = (long) WAITER_SINCE.getOpaque(this);
            return since != 0L && now - since >= bound;
        }

        boolean busyOpaque() {
            return (boolean) BUSY.getOpaque(this);
        }

        void setBusyOpaque(boolean value) {
            BUSY.setOpaque(this, value);
        }
    }
}
