package dev.wordstats.numa.lock.queue;

import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.topology.NodeLocator;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A reentrant mutual-exclusion lock for virtual threads on NUMA machines that hands the lock to a
 * waiter that is already running: the next version of {@link NumaMcsLock}. Threads queue per NUMA
 * node; the head of each node queue (its leader) is woken while the owner still runs, spins only
 * while the owner runs, and takes the lock from a releasing owner of its node without the lock ever
 * being free, up to a budget, before other nodes get a turn.
 *
 * <p>A drop-in for a non-fair {@link ReentrantLock}: {@link #lock}, {@link #lockInterruptibly},
 * {@link #tryLock()}, {@link #tryLock(long, TimeUnit)} and {@link #unlock} keep the {@link Lock}
 * contract; the lock is reentrant (up to {@link Integer#MAX_VALUE} holds) and {@link #unlock} by a
 * thread that does not hold it throws {@link IllegalMonitorStateException}. Its {@link Condition}s
 * ({@link #newCondition()}) keep the JDK's contract: an await releases every hold and takes the
 * lock again, through the queue, before it returns.
 *
 * <p>Not fair, but starvation-free: a free lock may be taken by an arriving thread, and a node may
 * keep the lock for {@link #DEFAULT_IN_NODE_BUDGET} passes in a row; but a queue leader that has
 * waited longer than {@link #reserveAfter()} reserves the lock and gets it at the next release.
 * Its mechanisms are fixed, all on; {@code NumaHandoffLockLab}, in the lab module numa-locks-lab,
 * which the tests and benchmarks use, switches each off to measure it. The class is not final only for
 * that lab form: its public methods are final and what a subclass may change is package-private.
 */
public class NumaHandoffLock extends NumaHandoffLockL1Pad implements Lock {

    /*
     * Overview
     *
     * Parts and papers (a mechanism's name in capitals is the HandoffMechanism that a lab lock,
     * NumaHandoffLockLab in numa-locks-lab, can switch off; this class has every one on):
     *  - per-node MCS queues (Mellor-Crummey & Scott, TOCS 1991) under one test-and-set word, as in
     *    NumaMcsLock, whose queue, queue nodes and word with its reservation this lock shares
     *    (NodeQueue, QueueNode, QueueLockFields); cohort locks (Dice, Marathe & Shavit, PPoPP 2012)
     *    and HMCS (Chabbi et al., PPoPP 2015): only each queue's head, the leader, competes for the
     *    word;
     *  - wake ahead (WAKE_AHEAD): a new owner's successor is made leader at once, so it is woken
     *    and running by the time the owner releases; the handoff is then a cache-line transfer, not
     *    an unpark and a mount while the lock sits idle (ShflLock, Kashyap et al., SOSP 2019,
     *    blocking variant, where the shuffler wakes the waiters about to get the lock). After a
     *    pass the passer does it, not the new owner: the unpark (and the scheduler's signalling)
     *    leaves the critical path, and the woken successor waits on the passer's carrier, which the
     *    passer is about to leave (the JDK's scheduler may leave an idle carrier asleep while tasks
     *    wait on a busy carrier's queue);
     *  - one awake waiter (ONE_AWAKE_WAITER): a release wakes no parked leader while some leader is
     *    awake (Go's sync.Mutex mutexWoken, Abseil's designated waker), and at most maxAwake =
     *    carriers - 1 leaders spin, the others park (Malthusian locks, Dice, EuroSys 2017);
     *  - spin only while the owner runs (SPIN_WHILE_OWNER_RUNS): a leader spins while the owner is
     *    mounted and running (MountState) and not when it is not (Solaris adaptive mutexes; Go
     *    spins only while the owner's P runs) -- carriers are few and not time-sliced, a spinner
     *    could hold the carrier the owner needs. A platform leader then parks; a virtual leader
     *    yields its carrier and looks again, each yield counted as YIELD_ROUNDS rounds of its spin
     *    budget: a park would cost a wake-up at the release, and a critical section that yields
     *    (the yield preset) would pay one each time;
     *  - in-node pass (IN_NODE_PASS): a releasing owner whose node leader is awake and due (it has
     *    led for DEFAULT_PASS_AFTER_NANOS: a running leader says so in its node, so the releaser
     *    reads a flag, not the clock; for a leader that waits for a carrier, perhaps the releaser's
     *    own, the releaser reads the clock; before that the releaser frees the word and may take it
     *    again, so short critical sections run back to back on one carrier instead of paying a
     *    thread switch each), hands it the lock directly (the word stays HELD, no barger can slip
     *    in) up to DEFAULT_IN_NODE_BUDGET passes in a row, then releases the word to every node and
     *    wakes another node's parked leader (cohort locks' bounded local passing; CNA, Dice &
     *    Kogan, EuroSys 2019, moves remote waiters to a secondary queue for the same effect). On
     *    one node it ends a turn when the leader is due rather than when the owner's slice runs
     *    out, which shortens the long waits (the p99);
     *  - time slice (TIME_SLICE): while a leader waits, only the last owner may take a free word
     *    without queueing, for SLICE_NANOS from its first such retake; everyone else queues.
     *    Without it, the releaser of a pass (or any arriving thread) barges in between the leader's
     *    polls and the queue order is lost (Jain's index falls). The slice ends with a pass to the due
     *    leader, or, when the leader is not running (woken onto this very carrier, say), with the
     *    owner queueing behind it and parking, which frees the carrier for it (time-sliced locks;
     *    Solaris' and Linux' anti-barging rules for fair handoff). A pass ends the passer's slice
     *    at once (SLICE_OVER), also as the new owner's pair: it queues. Kept as the heir's partner,
     *    a passer with time left spun for the word between the heir's critical sections, and with
     *    no outside work the two carriers traded the lock's line at every acquisition;
     *  - slice pair (SLICE_PAIR): the slice is held by the last two owners. A slice holder that
     *    finds the word held spins for it, while the owner runs, up to PARTNER_SPINS rounds (about
     *    one critical section of the long contention preset) before it queues; so when owners have
     *    work outside the lock, one of the pair runs its critical section while the other runs its
     *    outside work, and they trade the lock with no thread switch until their slices end (a
     *    switch per slice instead of one per critical section). And a release passes only to a
     *    running leader: a pass to one that waits for a carrier (often held by the pair) would
     *    leave the lock held by a thread that cannot run; that leader takes the free word once it
     *    is on a carrier. It pays when owners have as much work outside the lock as inside (the
     *    half-held preset);
     *  - remote turn (REMOTE_TURN, several nodes): a leader says which node it runs on at each
     *    clock read; a release passes a due leader that runs on another node than the releaser only
     *    once it has led REMOTE_TURN_FACTOR times passAfterNanos, and meanwhile the releaser's
     *    slice is that many times longer, so the lock stays on its node for a longer turn before it
     *    crosses (cohort locks' local passing, judged by where threads run, not where they queued:
     *    the JDK's scheduler resumes a virtual thread on any carrier), which lowers the share of
     *    cross-node handoffs;
     *  - local spinning: a leader spins on its own node's status, where a pass shows at once, reads
     *    its clock every CLOCK_MASK + 1 rounds (to say it is due) and the word only every POLL_MASK
     *    + 1 rounds, so the owner's lock line stays in the owner's cache between polls. The leader
     *    takes a word freed without a pass up to a poll late; a release passes a due leader the
     *    lock anyway, so only a leader not yet due waits that long;
     *  - reservation: a leader that has waited reserveAfter sets RESERVED; only it may take the
     *    word after the next release (Linux mutex handoff, Go's starvation mode). This is also the
     *    time bound of in-node passing: a reserved word is never passed within a node.
     *
     * State (state, owner, holds, ownerNode, parkedLeaders and reserver are QueueLockFields')
     *  - state: HELD (1) while owned, RESERVED (2) while a starving leader reserves the lock. The
     *    owner took HELD by CAS (from 0, or from RESERVED by the reserver), or received a HELD word
     *    from the previous owner by an in-node pass (CAS of its node status SPINNING -> OWNER).
     *  - owner (opaque, so spinners see it), holds, ownerQueue, ownerNode, passes: owner-only.
     *    While the lock is free, ownerQueue, ownerNode and passes are -1, null and 0 (or passes is
     *    handed on by a pass), so the uncontended path writes none of them.
     *  - awake: leaders counted awake (SPINNING), an upper bound: a thread adds 1 before it makes a
     *    node SPINNING and subtracts 1 after the node leaves SPINNING (or the CAS failed).
     *    parkedLeaders: nodes in LEADER_PARKED, so an uncontended release reads one word of the
     *    line it just wrote instead of every queue.
     *  - lastOwner, sliceStart, sliceCount: the time slice, plain fields written by owners (and
     *    sliceCount by the last owner as it takes the word again); a heuristic, see Accepted races.
     *    prevOwner, prevSliceStart (SLICE_PAIR): the owner before, and its slice; an owner that
     *    takes over shifts lastOwner's pair into them, and takes its own slice with it if it was
     *    prevOwner (not when it came through the queue: that starts a new slice).
     *  - ownerRunNode, sliceNanos (REMOTE_TURN): owner-only, the owner's node (looked up at its
     *    first pass decision) and its slice's length (longer while it keeps a leader of another node
     *    waiting).
     *    HandoffNode.runNode: opaque, by the leader's thread, where it runs.
     *  - HandoffNode.due: set (opaque) by the leader's own thread once it has led passAfterNanos;
     *    HandoffNode.passed: plain, own thread only, it received the lock by a pass.
     *  - queues[n] (NodeQueue): tail (MCS) and leader (the node last made leader, published before
     *    its status becomes a leader status, so a releaser that finds it there can pass to it or
     *    wake it).
     *  - HandoffNode.status: FOLLOWING -> FOLLOWING_PARKED (own thread) -> SPINNING (QueueNode's
     *    LEADING: granted by the
     *    departing leader or the wake-ahead owner; unpark if it was parked) <-> LEADER_PARKED (own
     *    thread parks; a waker or the thread itself takes it back to SPINNING) -> OWNER (own CAS
     *    on the word, or a releasing owner's pass) | CANCELLED (own thread gives up). OWNER and
     *    CANCELLED are final, one CAS decides each race.
     *
     * lock()
     *  1. Reentry; fast path CAS state 0 -> HELD, when no leader waits (awake and parkedLeaders
     *     are 0) or the caller holds the time slice (TIME_SLICE; without it, always: barging). A slice
     *     holder whose CAS failed while a leader waits spins for the word (SLICE_PAIR): CAS when
     *     it reads 0; queue when the spin is spent, the word is RESERVED or the owner is unmounted.
     *  2. Slow path: enqueue on the caller's node queue. With a predecessor, park (no spinning:
     *     one awake waiter per node) until granted leadership; without one, lead at once.
     *  3. As leader: take OWNER if passed; every CLOCK_MASK + 1 rounds mark itself due once it
     *     has led passAfterNanos; every POLL_MASK + 1 rounds CAS the word when it reads 0 (or
     *     RESERVED, reserver only);
     *     spin while the owner runs and awake <= maxAwake, yield while a virtual owner is unmounted
     *     (virtual leader), up to SPINS rounds in all; then reserve
     *     if reserveAfter has passed since leadership, else CAS SPINNING -> LEADER_PARKED, awake--,
     *     re-read the word, and park (timed: it must wake to reserve).
     *  4. Wake ahead: right after it owns the lock the leader grants leadership to its successor
     *     (after a pass, the passer has done so).
     *
     * unlock()
     *  1. holds--; at zero forget the owner. In-node pass: when passes < DEFAULT_IN_NODE_BUDGET,
     *     the word is not RESERVED and the releaser's node leader is due and running (SLICE_PAIR),
     *     CAS that leader SPINNING -> OWNER; the word stays HELD; grant leadership to its successor
     *     (wake ahead).
     *  2. Else release: getAndAdd(-HELD). If RESERVED: unpark the reserver, nothing else. (Without
     *     wake ahead, a lab lock grants leadership to the successor here.) Then, if no leader is
     *     awake (ONE_AWAKE_WAITER) or the budget is spent, wake one parked leader (CAS
     *     LEADER_PARKED -> SPINNING, unpark), looking at the releaser's node first (another node
     *     first when the budget is spent).
     *
     * Invariants (each with the test that checks it)
     *  - Mutual exclusion: an owner is made only by a CAS that sets HELD from 0 (or from RESERVED,
     *    by the reserver), or by a pass, which keeps HELD set and makes exactly one node OWNER (its
     *    status CAS); only the owner clears HELD or passes.
     *    // checked by NumaHandoffLockContractTest (all), NumaHandoffLockTests.* (jcstress)
     *  - A pass goes only to an awake leader: the status CAS SPINNING -> OWNER fails on a parked,
     *    cancelled or already-owning node, and a failed pass falls back to a release.
     *    // checked by NumaHandoffLockTests.ReservationRacesReleaseSameNode (eager: zero spins, every
     *    // leader parks while passes are tried), NumaHandoffLockTests.InNodePassVisibility,
     *    // NumaHandoffLockTest.withoutInNodePassNoOwnerIsPassedTheLock
     *  - In-node passes in a row <= the budget (DEFAULT_IN_NODE_BUDGET); then the word is
     *    released to every node.
     *    // checked by NumaHandoffLockTest.inNodePassRespectsItsBudget
     *  - At most one reservation; a reserved word is released (never passed) at the next unlock and
     *    only the reserver takes it; a reserver that gives up clears it and passes the wake-up on.
     *    // checked by NumaHandoffLockTests.ReservationRacesRelease{SameNode,CrossNode},
     *    // NumaHandoffLockTests.ReservationRacesTimeout{SameNode,CrossNode} (jcstress),
     *    // NumaHandoffLockTest.reservationBoundsOvertakingByAnotherNode,
     *    // NumaHandoffLockEagerReservationContractTest (all)
     *  - Wake ahead: while an owner that came through a queue holds the lock, its successor is
     *    already the leader (granted by the owner before its critical section, or by the passer
     *    right after a pass).
     *    // checked by NumaHandoffLockTest.wakeAheadMakesTheSuccessorLeaderWhileTheOwnerRuns,
     *    // NumaHandoffLockTest.aPasserWakesTheNewOwnersSuccessor,
     *    // NumaHandoffLockTests.PasserGrantRacesNewOwner (jcstress)
     *  - Time slice: while a leader waits, a thread that did not own the lock last never takes a
     *    free word without queueing, and the last owner stops doing so once its slice is over; a
     *    passer's slice is over with its pass.
     *    // checked by NumaHandoffLockTest.whileALeaderWaitsOnlyTheLastOwnerTakesAFreeLock,
     *    // NumaHandoffLockTest.aPassEndsThePassersSlice,
     *    // NumaHandoffLockTest.theLastOwnerQueuesOnceItsSliceIsOver,
     *    // NumaHandoffLockTest.withoutTimeSliceAnArrivingThreadTakesAFreeLock
     *  - A pass goes only to a due leader, never to one that has led less than passAfterNanos;
     *    only to a running one (SLICE_PAIR); to one that runs on another node than the releaser
     *    only once it has led REMOTE_TURN_FACTOR times as long (REMOTE_TURN).
     *    // checked by NumaHandoffLockTest.aLeaderOnAnotherNodeIsPassedTheLockOnlyAfterALongerTurn,
     *    // NumaHandoffLockTest.aLeaderIsNotPassedTheLockBeforeItIsDue,
     *    // NumaHandoffLockTest.withSlicePairALeaderWaitingForACarrierIsNotPassedTheLock
     *  - Slice pair: while a leader waits, the owner before the last one takes the word past the
     *    leader too, within its slice, also after spinning for it while it was held (a lab lock
     *    without SLICE_PAIR queues it). A partner spins at most PARTNER_SPINS rounds and only while
     *    the owner runs; it takes the word only by the CAS from 0, so mutual exclusion does not
     *    depend on it.
     *    // checked by NumaHandoffLockTest.withSlicePairThePreviousOwnerTakesTheLockPastTheLeaderToo,
     *    // NumaHandoffLockTests.SlicePartnerRacesLeader (jcstress, three actors: on 3 CPUs or more),
     *    // NumaHandoffLockContractTest (all mechanisms on), NumaHandoffLockNoHangTest
     *  - No lost wake-up, leader side (Dekker, all volatile): a parking leader publishes
     *    LEADER_PARKED, increments parkedLeaders, decrements awake, then re-reads state; a releaser
     *    clears HELD, then reads parkedLeaders (zero: nobody to wake), awake and, when no leader is
     *    awake, the leaders. Either the leader sees the lock free or the releaser sees it parked
     *    (or sees another leader awake, which re-checks the same way before it parks). Leaders
     *    also park timed while their reservation time is ahead, a backstop.
     *    // checked by NumaHandoffLockTests.WakeAheadRacesRelease{SameNode,CrossNode} (jcstress),
     *    // NumaHandoffLockContractTest.releaseChainWakesEveryWaiter, NumaHandoffLockNoHangTest
     *  - No lost wake-up, queue side: a follower parks only after FOLLOWING -> FOLLOWING_PARKED; a
     *    grant that overwrites FOLLOWING_PARKED unparks it. // checked by
     *    // NumaHandoffLockContractTest.timeoutAndInterruptStormEndsWithEveryThreadDoneAndCounterExact
     *  - Spinning: a leader spins only while the owner runs (SPIN_WHILE_OWNER_RUNS) and at most
     *    maxAwake leaders spin once the count settles (ONE_AWAKE_WAITER); every spin is
     *    bounded by SPINS. // checked by NumaHandoffLockTest.aLeaderDoesNotSpinWhileTheOwnerIsUnmounted,
     *    // NumaHandoffLockTest.noMoreSpinningLeadersThanTheCap, NumaHandoffLockNoHangTest
     *
     * Progress and fairness
     *  - Within a node, FIFO. Across nodes, and against bargers, no order, but bounded: a leader
     *    waits at most reserveAfter plus one critical section once the lock is in use, and a node
     *    keeps the lock for at most DEFAULT_IN_NODE_BUDGET passes before a release that wakes
     *    another node.
     *  - No unbounded spin (SPINS everywhere; a waiter for a successor's link yields after LINK_SPINS;
     *    a partner stops after PARTNER_SPINS).
     *
     * Accepted races
     *  - queues[n].leader may name a node that has since become OWNER or CANCELLED: a pass or a
     *    wake then fails its CAS and the releaser falls back (release, or the next queue).
     *  - awake overcounts for a moment (+1 before a CAS that fails): a release may then wake nobody;
     *    the thread that overcounted re-checks (an owner releases later; a leaving leader wakes a
     *    parked leader when it finds the lock free), and leaders' timed parks bound the rest.
     *  - A woken leader may lose the word to a barger and park again; the barger's release follows.
     *  - prevOwner and prevSliceStart are plain too, and prevSliceStart is also written by prevOwner
     *    as its slice starts: an owner change racing that write may keep a slice a little longer or
     *    end it early. A partner is not counted in awake: to the lock it is a barger retrying for a
     *    moment, so a release still wakes a parked leader as before, and the two may race for the word.
     *  - lastOwner, sliceStart and sliceCount are plain: a thread may read a stale lastOwner and
     *    take one more turn or queue once too often, and the slice is checked every
     *    SLICE_CHECK_MASK + 1 acquisitions, so it may run that many acquisitions past SLICE_NANOS.
     *    Mutual exclusion never depends on them (the word's CAS decides).
     *  - due is opaque: a release that misses it fresh passes one release later.
     *  - leaderSince is written and read opaque: a release that reads a stale value passes a
     *    moment early or late; the status CAS alone decides whether the pass happens.
     *  - MountState is a hint: the owner may unmount right after a waiter saw it running; the spin
     *    is bounded anyway.
     *  - The node from NodeLocator is read once per slow-path acquisition (and per fast-path
     *    release on several nodes); a wrong node costs locality, not correctness.
     *
     * Probe (optional, see LockProbe): the lock reports its own decisions where it makes them:
     * acquired(false) after a fast-path CAS (or a barge), acquired(true, wait) after acquireQueued
     * took the lock, reserved(node) by the leader whose CAS set RESERVED, and, for a timed probe,
     * released() after the release, from the owner-only probe fields read before it. Each report
     * sits behind a null check of a final field (QueueLockFields.probe and its views); nothing the
     * algorithm decides reads them, so a lock with a probe takes the same paths as one without
     * (checked by NumaHandoffLockTest.whileALeaderWaitsOnlyTheLastOwnerTakesAFreeLock and the other
     * slice tests, each run with and without a probe, and the Probed*LockContractTest suites).
     *
     * Memory modes: see package-info. Padding: the word and the owner fields share one 128-byte
     * padded block (QueueLockL0Pad, QueueLockFields, NumaHandoffLockFields, NumaHandoffLockL1Pad);
     * each node queue is its own padded object (NodeQueue). The variation points at the end of the
     * class return this class's fixed values; the lab's subclass overrides them.
     */

    /**
     * onSpinWait rounds a leader spins before it parks: long enough that a leader outlasts an
     * owner's time slice ({@link #SLICE_NANOS}) and a few critical sections, and does not park (to
     * be woken again) just as the slice ends. A quarter of it, shorter than the slice, made leaders
     * of another node spin out their budget and park, and the lock slower, with two simulated nodes
     * on the JDK's scheduler.
     */
    public static final int SPINS = 1 << 12;

    /** onSpinWait rounds a departing leader or owner waits for its successor's link before it yields. */
    private static final int LINK_SPINS = 1 << 10;

    /**
     * A spinning leader reads the lock word once every POLL_MASK + 1 rounds (a power of two). Each
     * read takes the word's line from the owner's cache, and an owner running short critical
     * sections back to back pays a miss at its next write; a pass is seen at once anyway (the
     * leader watches its own node every round). A read every 32 rounds was slower with short
     * critical sections, together with a pass that ends the passer's slice.
     */
    static final int POLL_MASK = 255;

    /** A spinning leader reads its clock, to say it is due, once every CLOCK_MASK + 1 rounds. */
    private static final int CLOCK_MASK = 31;

    /** Spin rounds a virtual leader's yield uses of its budget (while the owner is off its carrier). */
    private static final int YIELD_ROUNDS = 32;

    /**
     * How long the last owner may keep taking a free lock again while a leader waits (TIME_SLICE);
     * after that it queues like everyone else.
     */
    public static final long SLICE_NANOS = 20_000L;

    /** sliceStart of an owner whose slice has not started (its clock is read at its first retake). */
    private static final long NO_SLICE = Long.MIN_VALUE;

    /** sliceStart of an owner that passed the lock: a pass ends its slice, it queues from then on. */
    private static final long SLICE_OVER = Long.MIN_VALUE + 1;

    /** The last owner reads the clock once every SLICE_CHECK_MASK + 1 times it takes the lock again. */
    private static final int SLICE_CHECK_MASK = 15;

    /**
     * onSpinWait rounds a slice holder that found the lock held spins for it before it queues
     * (SLICE_PAIR): about one critical section of the contention benchmark's long preset. Long
     * enough for the pair's trade (the owner releases and goes on to its outside work); short enough
     * that the partner of an owner that takes the lock straight back (no outside work) soon gives
     * its carrier to the queue's leader.
     */
    static final int PARTNER_SPINS = 128;

    /** A spinning partner reads the lock word once every PARTNER_POLL_MASK + 1 rounds. */
    private static final int PARTNER_POLL_MASK = 7;

    /**
     * REMOTE_TURN: how many times longer a turn lasts when it would end with a pass to a leader that
     * runs on another node than the owner (the pass-after time and the owner's slice both). Longer
     * turns cross nodes less often and make the longest waits longer; this factor is the one kept: a
     * larger one crossed nodes only a little less often, with longer long waits.
     */
    public static final int REMOTE_TURN_FACTOR = 3;

    /** In-node passes in a row before the lock is released to every node. */
    public static final int DEFAULT_IN_NODE_BUDGET = 64;

    /**
     * How long a leader must have led (waited at the head of its queue) before a release passes it
     * the lock; until then the release frees the word and the releaser may take it again, which
     * keeps short critical sections running back to back on one carrier instead of paying a
     * virtual-thread switch per handoff.
     */
    public static final long DEFAULT_PASS_AFTER_NANOS = 10_000L;

    private static final VarHandle AWAKE;

    static {
        try {
            AWAKE = MethodHandles.lookup().findVarHandle(NumaHandoffLockFields.class, "awake", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final NodeLocator nodes;
    final NodeQueue[] queues; // one per node; package-private for the lab's views of the leaders
    private final long reserveAfterNanos;
    private final int maxAwake;

    /**
     * A lock with one queue per node of {@code nodes}.
     *
     * @param nodes        tells the node of the calling thread
     * @param reserveAfter how long the leader of a node queue may wait for the lock before it
     *                     reserves the lock for itself ({@link NumaMcsLock#DEFAULT_RESERVE_AFTER} by
     *                     default; zero reserves whenever a leader would park); not negative
     * @param carriers     the virtual-thread scheduler's number of carriers: at most
     *                     {@code carriers - 1} leaders spin at once (at least one), so a spinning
     *                     leader never takes the last carrier from the owner; at least 1
     */
    public NumaHandoffLock(NodeLocator nodes, Duration reserveAfter, int carriers) {
        this(nodes, reserveAfter, carriers, LockProbe.NONE);
    }

    /**
     * As {@link #NumaHandoffLock(NodeLocator, Duration, int)}, reporting its acquisitions, releases (when
     * the probe is timed) and reservations to {@code probe} ({@link LockProbe#NONE} for none).
     */
    public NumaHandoffLock(NodeLocator nodes, Duration reserveAfter, int carriers, LockProbe probe) {
        super(probe);
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        Objects.requireNonNull(reserveAfter, "reserveAfter");
        if (reserveAfter.isNegative()) {
            throw new IllegalArgumentException("reserveAfter must not be negative, was " + reserveAfter);
        }
        if (carriers < 1) {
            throw new IllegalArgumentException("carriers must be at least 1, was " + carriers);
        }
        int count = nodes.nodeCount();
        if (count < 1) {
            throw new IllegalArgumentException("nodeCount must be at least 1, was " + count);
        }
        this.reserveAfterNanos = saturatedNanos(reserveAfter);
        this.maxAwake = Math.max(1, carriers - 1);
        this.ownerQueue = -1; // and ownerNode null: what every release leaves behind
        this.ownerRunNode = -1;
        this.sliceNanos = SLICE_NANOS;
        this.queues = new NodeQueue[count];
        for (int i = 0; i < count; i++) {
            queues[i] = new NodeQueue();
        }
    }

    @Override
    public final void lock() {
        Thread current = Thread.currentThread();
        long asked = askedAt();
        if (owner == current) {
            reenter();
        } else if (mayBarge(current) && (casState(0, HELD) || partnerSpin(current))) {
            ownedFast(current);
            if (fastReported()) {
                reportAcquired(false, asked);
            }
        } else {
            acquireQueued(current, false, 0L);
        }
    }

    /**
     * Whether an arriving thread may take a free word without queueing: when no leader waits, or when
     * it holds a time slice (TIME_SLICE): it owned the lock last (or the time before that:
     * SLICE_PAIR) and its slice, which starts at its first retake, is not over. A variation point
     * too: a lab lock without TIME_SLICE lets every arrival take a free word.
     */
    boolean mayBarge(Thread current) {
        if ((awakeVolatile() | parkedLeadersVolatile()) == 0) {
            return true;
        }
        if (lastOwner != current) {
            return slicePair() && prevOwner == current && partnerSliceLeft();
        }
        long start = sliceStart;
        if (start == SLICE_OVER) {
            return false;
        }
        if (start == NO_SLICE) { // its first turn again since it got the lock: the slice starts now
            sliceStart = System.nanoTime();
            return true;
        }
        if ((++sliceCount & SLICE_CHECK_MASK) != 0) {
            return true;
        }
        return System.nanoTime() - start < sliceNanos;
    }

    /** The previous owner's slice (SLICE_PAIR): started at its first retake, SLICE_NANOS long. */
    private boolean partnerSliceLeft() {
        long start = prevSliceStart;
        if (start == SLICE_OVER) {
            return false; // it passed the lock on: its turn is over
        }
        if (start == NO_SLICE) {
            prevSliceStart = System.nanoTime();
            return true;
        }
        return System.nanoTime() - start < SLICE_NANOS;
    }

    /**
     * SLICE_PAIR: a slice holder whose try found the word held spins a moment for it while the owner
     * runs, instead of queueing. On two carriers the two slice holders then trade the lock, one
     * running its critical section while the other runs its outside work, with no thread switch
     * (figures in the Overview). To the lock this is a barger's bounded retry: it CASes a free word
     * like any.
     */
    private boolean partnerSpin(Thread current) {
        if (!slicePair()
                || (awakeVolatile() | parkedLeadersVolatile()) == 0
                || (current != lastOwner && current != prevOwner)) {
            return false; // no leader waits (the caller will lead), or no slice to hold
        }
        partnerSpinning(current, true);
        boolean took = spinForWord(partnerSpins());
        partnerSpinning(current, false);
        return took;
    }

    /** The partner's spin: CAS the word when it reads 0; stop when it is reserved or the owner is off its carrier. */
    private boolean spinForWord(int rounds) {
        for (int i = 0; i < rounds; i++) {
            if ((i & PARTNER_POLL_MASK) == 0) {
                int s = stateVolatile();
                if (s == 0) {
                    if (casState(0, HELD)) {
                        return true; // (its slice was checked on the way in; the spin is short)
                    }
                } else if ((s & RESERVED) != 0 || !MountState.isRunning(ownerOpaque())) {
                    return false; // a starving leader reserved it, or the owner is off its carrier
                }
            }
            Thread.onSpinWait();
        }
        return false;
    }

    @Override
    public final void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        Thread current = Thread.currentThread();
        long asked = askedAt();
        if (owner == current) {
            reenter();
        } else if (mayBarge(current) && (casState(0, HELD) || partnerSpin(current))) {
            ownedFast(current);
            if (fastReported()) {
                reportAcquired(false, asked);
            }
        } else if (acquireQueued(current, true, 0L) != ACQUIRED) {
            throw new InterruptedException();
        }
    }

    /** Takes the lock if it is free now, even if others are queued (barging), unless a leader reserved it. */
    @Override
    public final boolean tryLock() {
        Thread current = Thread.currentThread();
        if (owner == current) {
            reenter();
            return true;
        }
        long asked = askedAt();
        if (stateVolatile() == 0 && casState(0, HELD)) {
            ownedFast(current);
            if (fastReported()) {
                reportAcquired(false, asked);
            }
            return true;
        }
        return false;
    }

    @Override
    public final void unlock() {
        Thread current = Thread.currentThread();
        if (owner != current) {
            throw notHeldBy(current);
        }
        if (--holds > 0) {
            return;
        }
        long held = 0L;
        long wait = 0L;
        boolean slow = false;
        boolean reported = timedProbe != null;
        int q = ownerQueue;
        QueueNode head = ownerNode;
        if (q >= 0) { // came through a queue; after the fast path both are already -1 and null
            ownerNode = null;
            ownerQueue = -1;
            if (!reported && probe != null) {
                reported = waitReleaseHeard(); // a wait whose release the probe hears: only a queued owner asks
            }
        }
        if (reported) { // read before the release or pass lets another owner in
            held = System.nanoTime() - probeAcquiredAt;
            wait = probeWait;
            slow = probeWaited != 0;
        }
        setOwnerOpaque(null);
        int streak = passes;
        int budget = inNodeBudget();
        if (budget > 0
                && streak < budget
                && awakeVolatile() > 0
                && (stateVolatile() & RESERVED) == 0
                && tryPass(q, streak)) {
            if (reported) {
                reportReleased(slow, wait, held);
            }
            return; // the word stays HELD: the heir owns the lock now
        }
        if (streak != 0) {
            passes = 0;
        }
        int before = releaseState();
        if (head == null && before == HELD && parkedLeadersVolatile() <= 0) {
            if (reported) {
                reportReleased(slow, wait, held);
            }
            return; // the common case without contention: nobody to wake (small enough to inline)
        }
        afterRelease(head, before, q, streak);
        if (reported) {
            reportReleased(slow, wait, held);
        }
    }

    /**
     * In-node pass: CAS the releaser's node leader SPINNING -> OWNER when it is due (a running
     * leader says so itself; without SLICE_PAIR one waiting for a carrier is judged by the clock,
     * with it such a leader is never passed the lock: the pair's trade would stop at a lock held
     * by a thread that cannot run, and the leader takes the free word once it is on a carrier).
     */
    private boolean tryPass(int q, int streak) {
        int n = q >= 0 ? q : queues.length == 1 ? 0 : nodeOfCaller();
        HandoffNode heir = (HandoffNode) queues[n].leaderVolatile();
        if (heir != null
                && heir.statusVolatile() == HandoffNode.SPINNING
                && (heir.dueOpaque()
                        || (!slicePair() && !MountState.isRunning(heir.thread) && ledFor(heir, passAfterNanos())))) {
            if (remoteTurn()) {
                if (!nearOrLongEnough(heir)) {
                    sliceNanos = SLICE_NANOS * REMOTE_TURN_FACTOR; // a leader on another node: a longer turn
                    return false;
                }
                sliceNanos = SLICE_NANOS;
            }
            passes = streak + 1; // read by the heir after the CAS below
            long slice = sliceStart;
            sliceStart = SLICE_OVER; // the pass ends our slice; the heir makes it prevSliceStart
            if (heir.casStatus(HandoffNode.SPINNING, HandoffNode.OWNER)) {
                if (wakeAhead()) {
                    passLeadership(heir, queues[heir.queue]); // we, not the heir, wake its successor
                }
                return true;
            }
            passes = streak; // no pass: the release below resets it
            sliceStart = slice;
        }
        return false;
    }

    /**
     * REMOTE_TURN: whether a due {@code heir} runs on the releaser's node (or has not said where it
     * runs), or has led REMOTE_TURN_FACTOR times passAfterNanos. The releaser looks its own node up
     * once per ownership.
     */
    private boolean nearOrLongEnough(HandoffNode heir) {
        int there = heir.runNodeOpaque();
        if (there < 0) {
            return true;
        }
        int here = ownerRunNode;
        if (here < 0) {
            here = nodeOfCaller();
            ownerRunNode = here;
        }
        return there == here || ledFor(heir, passAfterNanos() * REMOTE_TURN_FACTOR);
    }

    /** After the word was released: leadership without wake ahead, the reserver, a parked leader. */
    private void afterRelease(QueueNode head, int before, int q, int streak) {
        int budget = inNodeBudget();
        boolean budgetSpent = budget > 0 && streak >= budget;
        if (head != null) {
            passLeadership(head, queues[head.queue]); // without wake ahead: the successor leads from now
        }
        if ((before & RESERVED) != 0) {
            unparkReserver();
            return;
        }
        if (parkedLeadersVolatile() <= 0) {
            return; // nobody to wake
        }
        int n = q >= 0 ? q : queues.length == 1 ? 0 : nodeOfCaller();
        if (budgetSpent) {
            wakeParkedLeader(n + 1); // another node's turn first
        } else if (!oneAwakeWaiter() || awakeVolatile() <= 0) {
            wakeParkedLeader(n);
        }
    }

    /** How long a node queue's leader may wait for the lock before it reserves the lock. */
    public final Duration reserveAfter() {
        return Duration.ofNanos(reserveAfterNanos);
    }

    /** The number of node queues. */
    public final int queueCount() {
        return queues.length;
    }

    @Override
    public final String toString() {
        return super.toString() + ownerAndReserver() + "[queues=" + queues.length + ", awake=" + awakeVolatile() + "]";
    }

    // ---------------------------------------------------------------------------------------------
    // Slow path

    private int nodeOfCaller() {
        int n = nodes.currentNode();
        return n < 0 || n >= queues.length ? 0 : n;
    }

    /** Queues the caller on its node, waits for leadership, then for the lock. */
    @Override
    final int acquireQueued(Thread current, boolean interruptible, long deadline) {
        long asked = waitAskedAt(); // a waiting acquisition is timed when its probe wants it
        int n = queues.length == 1 ? 0 : nodeOfCaller();
        NodeQueue queue = queues[n];
        HandoffNode node = new HandoffNode(current, n);
        boolean interrupted = false;
        boolean owns = false;
        QueueNode pred = queue.getAndSetTail(node);
        if (pred == null) {
            getAndAddAwake(1);
            node.setLeaderSinceOpaque(System.nanoTime());
            node.setStatusVolatile(HandoffNode.SPINNING); // not yet visible to anyone: the leader slot comes next
            queue.setLeaderVolatile(node);
        } else {
            pred.setNextVolatile(node);
            int outcome = awaitLeadership(node, interruptible, deadline);
            if (outcome == GAVE_UP) {
                int reason = giveUpReason(deadline);
                if (node.cancelFollowing() || giveUpLeadership(node, queue, false)) {
                    return reason;
                }
                // Granted and then passed the lock while we were leaving: keep it.
                interrupted = reason == INTERRUPTED;
                owns = true;
            }
            interrupted |= outcome == LEADER_INTERRUPTED;
        }
        if (!owns) {
            int outcome = awaitLock(current, node, interruptible, deadline);
            if (outcome == GAVE_UP) {
                return giveUpReason(deadline);
            }
            interrupted |= outcome == LEADER_INTERRUPTED;
        }
        if (wakeAhead()) {
            if (!node.passed) { // else the passer woke our successor
                passLeadership(node, queue); // the successor wakes while we run the critical section
            }
            owned(current, n, null);
        } else {
            owned(current, n, node);
        }
        if (probe != null) {
            reportAcquired(true, asked);
        }
        if (interrupted) {
            current.interrupt(); // restore the status we cleared (lock() is not interruptible)
        }
        return ACQUIRED;
    }

    /** As a follower: park until granted leadership (or passed the lock right after), or give up. */
    private static int awaitLeadership(HandoffNode node, boolean interruptible, long deadline) {
        boolean interrupted = false;
        for (; ; ) {
            int s = node.statusVolatile();
            if (s != HandoffNode.FOLLOWING && s != HandoffNode.FOLLOWING_PARKED) {
                return interrupted ? LEADER_INTERRUPTED : LEADER; // SPINNING, LEADER_PARKED, or already OWNER by a pass
            }
            if (deadline != 0L && deadline - System.nanoTime() <= 0L) {
                return GAVE_UP;
            }
            if (s == HandoffNode.FOLLOWING) {
                node.casStatus(HandoffNode.FOLLOWING, HandoffNode.FOLLOWING_PARKED); // publish, re-check, park
            } else {
                park(node, deadline, 0L);
                if (Thread.interrupted()) {
                    if (interruptible) {
                        return GAVE_UP;
                    }
                    interrupted = true;
                }
            }
        }
    }

    /**
     * As its queue's leader: take a passed lock or the word; spin while allowed, reserve when
     * starving, else park. On giving up, leaves as a leader (passing leadership on).
     */
    private int awaitLock(Thread current, HandoffNode node, boolean interruptible, long deadline) {
        NodeQueue queue = queues[node.queue];
        boolean interrupted = false;
        boolean reserved = false;
        long since = System.nanoTime();
        long reserveAt = since + reserveAfterNanos < since ? Long.MAX_VALUE : since + reserveAfterNanos;
        int spins = spins();
        long passAfterNanos = passAfterNanos();
        boolean remoteTurn = remoteTurn();
        int budget = spins;
        boolean due = false;
        boolean yieldWhileOwnerAway = current.isVirtual();
        int spun = 0;
        for (; ; ) {
            int st = node.statusVolatile();
            if (st == HandoffNode.OWNER) { // passed by the previous owner: the word stayed HELD
                node.passed = true;
                getAndAddAwake(-1);
                if (reserved) {
                    clearReservation(); // we reserved after the passer looked: the word is ours anyway
                }
                countSpins(spun);
                return interrupted ? LEADER_INTERRUPTED : LEADER;
            }
            if (st == HandoffNode.LEADER_PARKED) { // woken (or timed out, or spurious): count ourselves awake
                getAndAddAwake(1);
                if (node.casStatus(HandoffNode.LEADER_PARKED, HandoffNode.SPINNING)) {
                    getAndAddParkedLeaders(-1);
                } else {
                    getAndAddAwake(-1); // a waker did it and counted us
                }
                continue;
            }
            if (budget > 0 && (spun & CLOCK_MASK) != 0) {
                budget--; // between polls, spin on our own node: the owner's lock word stays in its cache
                spun++;
                Thread.onSpinWait();
                continue;
            }
            if (remoteTurn) {
                int here = nodeOfCaller(); // where we run now: a virtual thread may have moved
                if (here != node.runNodeOpaque()) {
                    node.setRunNodeOpaque(here); // only on a change: releasers read this node's line at each release
                }
            }
            if (!due && (passAfterNanos == 0L || System.nanoTime() - node.leaderSinceOpaque() >= passAfterNanos)) {
                due = true; // from now on a release may pass us the lock (it reads this, not the clock)
                node.setDueOpaque(true);
            }
            if (budget > 0 && (spun & POLL_MASK) != 0) {
                budget--;
                spun++;
                Thread.onSpinWait();
                continue;
            }
            int s = stateVolatile();
            if (takeWord(s, reserved)) {
                node.setStatusVolatile(HandoffNode.OWNER); // no pass can race: passes happen while HELD
                getAndAddAwake(-1);
                countSpins(spun);
                return interrupted ? LEADER_INTERRUPTED : LEADER;
            }
            if (deadline != 0L && deadline - System.nanoTime() <= 0L) {
                break;
            }
            if (budget > 0) {
                if (!spinWhileOwnerRuns() || MountState.isRunning(ownerOpaque())) {
                    if (!oneAwakeWaiter() || awakeVolatile() <= maxAwake) {
                        budget--;
                        spun++;
                        Thread.onSpinWait();
                        continue;
                    }
                } else if (yieldWhileOwnerAway) {
                    // The owner is off its carrier (it yielded or blocked inside its critical
                    // section): give ours up for a moment instead of parking, which would cost a
                    // wake-up at the release. A yield uses a poll period of the budget.
                    budget -= YIELD_ROUNDS;
                    Thread.yield();
                    continue;
                }
            }
            if (!reserved && (s & RESERVED) == 0 && System.nanoTime() - reserveAt >= 0L && reserve(s, current)) {
                reserved = true; // then re-check the word (the releaser: clear HELD, read reserver)
                if (probe != null) {
                    probe.reserved(node.queue);
                }
                continue;
            }
            if (node.casStatus(HandoffNode.SPINNING, HandoffNode.LEADER_PARKED)) {
                getAndAddParkedLeaders(1);
                getAndAddAwake(-1);
                countSpins(spun);
                spun = 0;
                s = stateVolatile(); // re-check after publishing (the releaser: clear HELD, read awake, parkedLeaders)
                if (!mayTake(s, reserved)) {
                    // Timed while the reservation is still ahead of us: we must wake to reserve.
                    park(this, deadline, reserved || System.nanoTime() - reserveAt >= 0L ? 0L : reserveAt);
                    if (Thread.interrupted()) {
                        interrupted = true;
                        if (interruptible) {
                            break;
                        }
                    }
                }
                budget = spins;
            }
        }
        countSpins(spun);
        if (!giveUpLeadership(node, queue, reserved)) {
            // Passed the lock while we were leaving: keep it (the caller restores an interrupt).
            return interrupted ? LEADER_INTERRUPTED : LEADER;
        }
        return GAVE_UP;
    }

    /**
     * Whether {@code leader} has led {@code nanos}, read from the clock: for a leader that is not
     * mounted (it waits for a carrier, often this one) and so cannot say it is due itself, and for
     * a remote turn (REMOTE_TURN).
     */
    private static boolean ledFor(HandoffNode leader, long nanos) {
        return nanos == 0L || System.nanoTime() - leader.leaderSinceOpaque() >= nanos;
    }

    /**
     * A leader that leaves without the lock: marks its node CANCELLED, drops its reservation,
     * passes leadership on, and wakes a parked leader if the lock is free.
     *
     * @return false if a pass made it the owner first (it then holds the lock)
     */
    private boolean giveUpLeadership(HandoffNode node, NodeQueue queue, boolean reserved) {
        for (; ; ) {
            int s = node.statusVolatile();
            if (s == HandoffNode.OWNER) {
                node.passed = true;
                getAndAddAwake(-1);
                if (reserved) {
                    clearReservation(); // it owns HELD already
                }
                return false;
            }
            if (node.casStatus(s, HandoffNode.CANCELLED)) {
                if (s == HandoffNode.SPINNING) {
                    getAndAddAwake(-1);
                } else if (s == HandoffNode.LEADER_PARKED) {
                    getAndAddParkedLeaders(-1);
                }
                break;
            }
        }
        if (reserved) {
            clearReservation(); // the word may be free
        }
        passLeadership(node, queue);
        if ((stateVolatile() & HELD) == 0) {
            wakeParkedLeader(node.queue); // a release may have counted on us
        }
        return true;
    }

    /**
     * Grants leadership of {@code queue} from {@code head} (owner or leaving leader) to the first
     * live successor, skipping cancelled nodes; with none, empties the queue.
     */
    private void passLeadership(QueueNode head, NodeQueue queue) {
        QueueNode current = head;
        for (; ; ) {
            HandoffNode next = (HandoffNode) queue.nextOrEmpty(current, LINK_SPINS);
            if (next == null) {
                return;
            }
            queue.setLeaderVolatile(next); // published before it can lead, so releasers find it
            next.setLeaderSinceOpaque(System.nanoTime());
            getAndAddAwake(1);
            if (next.grant()) {
                return;
            }
            getAndAddAwake(-1);
            current = next; // cancelled: its thread has left; continue behind it
        }
    }

    /** Wakes one parked leader, looking at queue {@code from} first, then the others in order. */
    private void wakeParkedLeader(int from) {
        NodeQueue[] qs = queues;
        int count = qs.length;
        for (int i = 0; i < count; i++) {
            int n = (from + i) % count;
            QueueNode leader = qs[n].leaderVolatile();
            if (leader != null && leader.statusVolatile() == HandoffNode.LEADER_PARKED) {
                getAndAddAwake(1);
                if (leader.casStatus(HandoffNode.LEADER_PARKED, HandoffNode.SPINNING)) {
                    getAndAddParkedLeaders(-1);
                    LockSupport.unpark(leader.thread);
                    return;
                }
                getAndAddAwake(-1);
                if (leader.statusVolatile() == HandoffNode.SPINNING) {
                    return; // it woke by itself
                }
            }
        }
    }

    /** Parks until {@code deadline} or {@code wakeAt} (0: none), whichever is first. */
    private static void park(Object blocker, long deadline, long wakeAt) {
        long until = deadline == 0L ? wakeAt : (wakeAt == 0L || deadline - wakeAt < 0L ? deadline : wakeAt);
        if (until == 0L || until == Long.MAX_VALUE) {
            LockSupport.park(blocker);
        } else {
            long nanos = until - System.nanoTime();
            if (nanos > 0L) {
                LockSupport.parkNanos(blocker, nanos);
            }
        }
    }

    private void owned(Thread current, int queue, HandoffNode node) {
        ownedFast(current);
        if (slicePair()) {
            sliceStart = NO_SLICE; // through the queue: a new slice, even for the previous owner
        }
        ownerQueue = queue;
        ownerNode = node;
        ownerRunNode = -1; // it may run elsewhere than when it last owned the lock
    }

    /** Owner by the fast path: ownerQueue and ownerNode are still -1 and null, as every release leaves them. */
    private void ownedFast(Thread current) {
        setOwnerOpaque(current);
        if (lastOwner != current) {
            if (slicePair()) { // the last owner becomes the previous one, with its slice
                Thread last = lastOwner;
                long lastStart = sliceStart;
                sliceStart = prevOwner == current ? prevSliceStart : NO_SLICE;
                prevOwner = last;
                prevSliceStart = lastStart;
            } else {
                sliceStart = NO_SLICE; // no clock read here: most owner changes never need the slice
            }
            lastOwner = current;
            ownerRunNode = -1;
            sliceNanos = SLICE_NANOS;
        }
        holds = 1;
    }

    private void getAndAddAwake(int delta) {
        AWAKE.getAndAdd(this, delta);
    }

    private int awakeVolatile() {
        return (int) AWAKE.getVolatile(this);
    }

    // ---------------------------------------------------------------------------------------------
    // Variation points. Each returns this class's fixed value: a constant (remoteTurn: whether
    // there are several queues). While no subclass is loaded, as in production, the JIT binds
    // each call to this class by class hierarchy analysis, inlines it and folds the branch on it:
    // no flag field, no load. NumaHandoffLockLab, in numa-locks-lab, which the tests, jcstress and
    // the benchmarks use (never this library's jar), overrides them to switch a mechanism
    // off, change a knob, or count. mayBarge above is one too (TIME_SLICE). They stay
    // package-private: the lab's classes are in this package (numa-locks-lab's README says why), so
    // no subclass outside it can change the algorithm's decisions.

    /** WAKE_AHEAD: the new owner (or the passer) makes its successor leader at once. */
    boolean wakeAhead() {
        return true;
    }

    /** ONE_AWAKE_WAITER: a release wakes no parked leader while one is awake; at most maxAwake spin. */
    boolean oneAwakeWaiter() {
        return true;
    }

    /** SPIN_WHILE_OWNER_RUNS: a leader spins only while the owner runs. */
    boolean spinWhileOwnerRuns() {
        return true;
    }

    /** SLICE_PAIR: the last two owners share the time slice, and a pass goes only to a running leader. */
    boolean slicePair() {
        return true;
    }

    /** REMOTE_TURN: on several nodes, a pass to a leader that runs on another node waits for a longer turn. */
    boolean remoteTurn() {
        return queues.length > 1;
    }

    /** IN_NODE_PASS: passes in a row within a node; 0 passes never. */
    int inNodeBudget() {
        return DEFAULT_IN_NODE_BUDGET;
    }

    /** onSpinWait rounds a leader spins before it parks. */
    int spins() {
        return SPINS;
    }

    /** How long a leader must have led before a release passes it the lock (0: at once). */
    long passAfterNanos() {
        return DEFAULT_PASS_AFTER_NANOS;
    }

    /** onSpinWait rounds a slice holder spins for a held word (SLICE_PAIR). */
    int partnerSpins() {
        return PARTNER_SPINS;
    }

    /** A leader stops spinning after {@code rounds} onSpinWait rounds: nothing to do here. */
    void countSpins(int rounds) {}

    /** A slice holder starts ({@code spinning}) or stops spinning for the word: nothing to do here. */
    void partnerSpinning(Thread partner, boolean spinning) {}
}

abstract class NumaHandoffLockFields extends QueueLockFields {
    int ownerQueue; // plain, owner only: the queue it came through, -1 after the fast path
    int passes; // plain, owner only, handed on with the lock (the pass CAS or the release orders it)
    int awake; // getAndAdd by leaders, granters, wakers; read volatile by releasers and spinners
    long sliceStart; // plain: NO_SLICE for a new owner, the clock at its first retake, SLICE_OVER once it passed
    int sliceCount; // plain, by the last owner as it takes the word again
    Thread lastOwner; // plain, by each owner; read plain by arriving threads: who holds the time slice
    Thread prevOwner; // plain, by each owner (SLICE_PAIR): the owner before lastOwner, the other slice holder
    long prevSliceStart; // plain, by owners and by prevOwner at its first retake: prevOwner's slice
    int ownerRunNode; // plain, owner only (REMOTE_TURN): its node, looked up at its first pass decision; -1 before
    long sliceNanos; // plain, owner only: its slice's length, longer while it keeps a leader of another node waiting

    NumaHandoffLockFields(LockProbe probe) {
        super(probe);
    }
}

abstract class NumaHandoffLockL1Pad extends NumaHandoffLockFields {
    byte p1000, p1001, p1002, p1003, p1004, p1005, p1006, p1007, p1008, p1009, p1010, p1011, p1012, p1013, p1014, p1015;
    byte p1016, p1017, p1018, p1019, p1020, p1021, p1022, p1023, p1024, p1025, p1026, p1027, p1028, p1029, p1030, p1031;
    byte p1032, p1033, p1034, p1035, p1036, p1037, p1038, p1039, p1040, p1041, p1042, p1043, p1044, p1045, p1046, p1047;
    byte p1048, p1049, p1050, p1051, p1052, p1053, p1054, p1055, p1056, p1057, p1058, p1059, p1060, p1061, p1062, p1063;
    byte p1064, p1065, p1066, p1067, p1068, p1069, p1070, p1071, p1072, p1073, p1074, p1075, p1076, p1077, p1078, p1079;
    byte p1080, p1081, p1082, p1083, p1084, p1085, p1086, p1087, p1088, p1089, p1090, p1091, p1092, p1093, p1094, p1095;
    byte p1096, p1097, p1098, p1099, p1100, p1101, p1102, p1103, p1104, p1105, p1106, p1107, p1108, p1109, p1110, p1111;
    byte p1112, p1113, p1114, p1115, p1116, p1117, p1118, p1119, p1120, p1121, p1122, p1123, p1124, p1125, p1126, p1127;

    NumaHandoffLockL1Pad(LockProbe probe) {
        super(probe);
    }
}
