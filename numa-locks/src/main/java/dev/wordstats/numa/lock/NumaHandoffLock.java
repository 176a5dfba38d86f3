package dev.wordstats.numa.lock;

import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.topology.NodeLocator;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
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
 * thread that does not hold it throws {@link IllegalMonitorStateException}. It has no
 * {@link Condition}s: {@link #newCondition()} throws {@link UnsupportedOperationException}.
 *
 * <p>Not fair, but starvation-free: a free lock may be taken by an arriving thread, and a node may
 * keep the lock for {@link #DEFAULT_IN_NODE_BUDGET} passes in a row; but a queue leader that has
 * waited longer than {@link #reserveAfter()} (1 ms by default) reserves the lock and gets it at the
 * next release. Each mechanism can be switched off ({@link HandoffMechanism}) to measure it.
 */
public final class NumaHandoffLock extends NumaHandoffLockL1Pad implements Lock {

    /*
     * Overview
     *
     * Parts and papers:
     *  - per-node MCS queues (Mellor-Crummey & Scott, TOCS 1991) under one test-and-set word, as in
     *    NumaMcsLock, cohort locks (Dice, Marathe & Shavit, PPoPP 2012) and HMCS (Chabbi et al.,
     *    PPoPP 2015): only each queue's head, the leader, competes for the word;
     *  - wake ahead: a new owner's successor is made leader at once, so it is woken and running by
     *    the time the owner releases; the handoff is then a cache-line transfer, not an unpark and a
     *    mount while the lock sits idle (ShflLock, Kashyap et al., SOSP 2019, blocking variant,
     *    where the shuffler wakes the waiters about to get the lock). After a pass the passer does
     *    it, not the new owner: the unpark (and the scheduler's signalling) leaves the critical
     *    path, and the woken successor waits on the passer's carrier, which the passer is about to
     *    leave (the JDK's scheduler may leave an idle carrier asleep while tasks wait on a busy
     *    carrier's queue);
     *  - one awake waiter: a release wakes no parked leader while some leader is awake (Go's
     *    sync.Mutex mutexWoken, Abseil's designated waker), and at most maxAwake = carriers - 1
     *    leaders spin, the others park (Malthusian locks, Dice, EuroSys 2017);
     *  - spin only while the owner runs: a leader spins while the owner is mounted and running
     *    (MountState) and not when it is not (Solaris adaptive mutexes; Go spins only while the
     *    owner's P runs) -- carriers are few and not time-sliced, a spinner could hold the carrier
     *    the owner needs. A platform leader then parks; a virtual leader yields its carrier and
     *    looks again, each yield counted as YIELD_ROUNDS rounds of its spin budget: a park would
     *    cost a wake-up at the release, and a critical section that yields (the yield preset) would
     *    pay one each time (0.57x the non-fair lock with parking, 1.03x with yielding);
     *  - in-node pass: a releasing owner whose node leader is awake and due (it has led for
     *    passAfterNanos, 10 us: a running leader says so in its node, so the releaser reads a flag,
     *    not the clock; for a leader that waits for a carrier, perhaps the releaser's own, the
     *    releaser reads the clock; before that the releaser frees the word and may take it again, so short
     *    critical sections run back to back on one carrier instead of paying a thread switch
     *    each), hands it the lock directly (the word stays HELD, no barger can slip in) up to
     *    inNodeBudget passes in a row, then
     *    releases the word to every node and wakes another node's parked leader (cohort locks'
     *    bounded local passing; CNA, Dice & Kogan, EuroSys 2019, moves remote waiters to a
     *    secondary queue for the same effect). On one node it ends a turn when the leader is due
     *    rather than when the owner's slice runs out: at ~3 us, 64 threads on 2 carriers, the p99
     *    wait is 740-804 us with it and 1825-2569 us without it
     *    (benchmarks/results/2026-11-24-ablation-carriers);
     *  - time slice: while a leader waits, only the last owner may take a free word without
     *    queueing, for SLICE_NANOS (20 us) from its first such retake; everyone else
     *    queues. Without it, the releaser of a pass (or any arriving thread) barges in between the
     *    leader's polls and the queue order is lost (in the contention benchmark at ~0.2 us, Jain's
     *    index 0.68 without it, 1.00 with it). The slice ends with a pass to the due leader, or, when the leader
     *    is not running (woken onto this very carrier, say), with the owner queueing behind it and
     *    parking, which frees the carrier for it (time-sliced locks; Solaris' and Linux'
     *    anti-barging rules for fair handoff). A pass ends the passer's slice at once (SLICE_OVER),
     *    also as the new owner's pair: it queues. Kept as the heir's partner, a passer with time
     *    left spun for the word between the heir's critical sections, and with no outside work the
     *    two carriers traded the lock's line at every acquisition;
     *  - slice pair (SLICE_PAIR): the slice is held by the last two owners. A slice holder that
     *    finds the word held spins for it, while the owner runs, up to PARTNER_SPINS rounds (about
     *    one ~3 us critical section) before it queues; so when owners have work outside the lock,
     *    one of the pair runs its critical section while the other runs its outside work, and they
     *    trade the lock with no thread switch until their slices end (a switch per slice instead of
     *    one per critical section). And a release passes only to a running leader: a pass to one
     *    that waits for a carrier (often held by the pair) would leave the lock held by a thread
     *    that cannot run; that leader takes the free word once it is on a carrier. With outside
     *    work = inside work, 64 threads on 2 carriers: 1.13x (1.06-1.21) the non-fair lock with
     *    it, 0.93x (0.74-0.96) without it (benchmarks/results/2026-11-24-slice-pair);
     *  - remote turn (REMOTE_TURN, several nodes): a leader says which node it runs on at each
     *    clock read; a release passes a due leader that runs on another node than the releaser only
     *    once it has led REMOTE_TURN_FACTOR times passAfterNanos, and meanwhile the releaser's slice
     *    is that many times longer, so the lock stays on its node for a longer turn before it
     *    crosses (cohort locks' local passing, judged by where threads run, not where they queued:
     *    the JDK's scheduler resumes a virtual thread on any carrier);
     *  - local spinning: a leader spins on its own node's status, where a pass shows at once, reads
     *    its clock every CLOCK_MASK + 1 rounds (to say it is due) and the word only every
     *    POLL_MASK + 1 rounds (about 5 us), so the owner's lock line stays in the owner's cache
     *    between polls. The leader takes a word freed without a pass up to a poll late; a release
     *    passes a due leader the lock anyway, so only a leader not yet due waits that long;
     *  - reservation: a leader that has waited reserveAfter sets RESERVED; only it may take the
     *    word after the next release (Linux mutex handoff, Go's starvation mode). This is also the
     *    time bound of in-node passing: a reserved word is never passed within a node.
     *
     * State
     *  - state: HELD (1) while owned, RESERVED (2) while a starving leader reserves the lock. The
     *    owner took HELD by CAS (from 0, or from RESERVED by the reserver), or received a HELD word
     *    from the previous owner by an in-node pass (CAS of its node status SPINNING -> OWNER).
     *  - owner (opaque, so spinners see it), holds, ownerQueue, ownerNode, passes: owner-only.
     *    While the lock is free, ownerQueue, ownerNode and passes are -1, null and 0 (or passes is
     *    handed on by a pass), so the uncontended path writes none of them.
     *  - awake: leaders counted awake (SPINNING), an upper bound: a thread adds 1 before it makes a
     *    node SPINNING and subtracts 1 after the node leaves SPINNING (or the CAS failed).
     *    parkedLeaders: nodes in LEADER_PARKED, so an uncontended release reads one word of the
     *    line it just wrote instead of every queue. spinRounds: a statistic for tests.
     *  - lastOwner, sliceStart, sliceCount: the time slice, plain fields written by owners (and
     *    sliceCount by the last owner as it takes the word again); a heuristic, see Accepted races.
     *    prevOwner, prevSliceStart (SLICE_PAIR): the owner before, and its slice; an owner that
     *    takes over shifts lastOwner's pair into them, and takes its own slice with it if it was
     *    prevOwner (not when it came through the queue: that starts a new slice). partner: a hint
     *    (opaque), the slice holder spinning for the word now.
     *  - ownerRunNode, sliceNanos (REMOTE_TURN): owner-only, the owner's node (looked up at its
     *    first pass decision) and its slice's length (longer while it keeps a leader of another node
     *    waiting).
     *    HandoffNode.runNode: opaque, by the leader's thread, where it runs.
     *  - HandoffNode.due: set (opaque) by the leader's own thread once it has led passAfterNanos;
     *    HandoffNode.passed: plain, own thread only, it received the lock by a pass.
     *  - queues[n]: tail (MCS) and leader (the node last made leader, published before its status
     *    becomes a leader status, so a releaser that finds it there can pass to it or wake it).
     *  - HandoffNode.status: FOLLOWING -> FOLLOWING_PARKED (own thread) -> SPINNING (granted by the
     *    departing leader or the wake-ahead owner; unpark if it was parked) <-> LEADER_PARKED (own
     *    thread parks; a waker or the thread itself takes it back to SPINNING) -> OWNER (own CAS
     *    on the word, or a releasing owner's pass) | CANCELLED (own thread gives up). OWNER and
     *    CANCELLED are final, one CAS decides each race.
     *
     * lock()
     *  1. Reentry; fast path CAS state 0 -> HELD, when no leader waits (awake and parkedLeaders
     *     are 0) or the caller holds the time slice (TIME_SLICE; off: always, barging). A slice
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
     *  1. holds--; at zero forget the owner. In-node pass: when passes < inNodeBudget, the word is
     *     not RESERVED and the releaser's node leader is due (and, with SLICE_PAIR, running), CAS that leader
     *     SPINNING -> OWNER; the word stays HELD; with wake ahead, grant leadership to its successor.
     *  2. Else release: getAndAdd(-HELD). If RESERVED: unpark the reserver, nothing else. Without
     *     wake ahead, grant leadership to the successor now. Then, if no leader is awake (or the
     *     budget is spent, or ONE_AWAKE_WAITER is off), wake one parked leader (CAS LEADER_PARKED
     *     -> SPINNING, unpark), looking at the releaser's node first (another node first when the
     *     budget is spent).
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
     *  - In-node passes in a row <= inNodeBudget; then the word is released to every node.
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
     *    with SLICE_PAIR only to a running one; with REMOTE_TURN, to one that runs on another node
     *    than the releaser only once it has led REMOTE_TURN_FACTOR times as long.
     *    // checked by NumaHandoffLockTest.aLeaderOnAnotherNodeIsPassedTheLockOnlyAfterALongerTurn,
     *    // NumaHandoffLockTest.aLeaderIsNotPassedTheLockBeforeItIsDue,
     *    // NumaHandoffLockTest.withSlicePairALeaderWaitingForACarrierIsNotPassedTheLock
     *  - Slice pair: while a leader waits, the owner before the last one takes the word past the
     *    leader too, within its slice, also after spinning for it while it was held; without
     *    SLICE_PAIR it queues. A partner spins at most partnerSpins rounds and only while the owner
     *    runs; it takes the word only by the CAS from 0, so mutual exclusion does not depend on it.
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
     *  - Spinning: a leader spins only while the owner runs (when SPIN_WHILE_OWNER_RUNS) and at
     *    most maxAwake leaders spin once the count settles (ONE_AWAKE_WAITER); every spin is
     *    bounded by SPINS. // checked by NumaHandoffLockTest.aLeaderDoesNotSpinWhileTheOwnerIsUnmounted,
     *    // NumaHandoffLockTest.noMoreSpinningLeadersThanTheCap, NumaHandoffLockNoHangTest
     *
     * Progress and fairness
     *  - Within a node, FIFO. Across nodes, and against bargers, no order, but bounded: a leader
     *    waits at most reserveAfter plus one critical section once the lock is in use, and a node
     *    keeps the lock for at most inNodeBudget passes before a release that wakes another node.
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
     * Memory modes: see package-info. Padding: the word and the owner fields share one 128-byte
     * padded block; each node queue is its own padded object.
     */

    /**
     * onSpinWait rounds a leader spins before it parks: 80-100 us on the x86 machine of
     * benchmarks/README.md (about 20-25 ns a round), so a leader outlasts an owner's time slice
     * ({@link #SLICE_NANOS}) and a few critical sections, and does not park (to be woken again) just
     * as the slice ends. A quarter of it, no longer than the slice, made leaders of another node
     * spin out their budget and park (25,565 of 32,025 parks) with two simulated nodes on the JDK's
     * scheduler: 0.74-0.83x of the non-fair lock there, 0.88x with this budget.
     */
    public static final int SPINS = 1 << 12;

    /** onSpinWait rounds a departing leader or owner waits for its successor's link before it yields. */
    private static final int LINK_SPINS = 1 << 10;

    /**
     * A spinning leader reads the lock word once every POLL_MASK + 1 rounds (a power of two): about
     * every 5 us on the machine of benchmarks/README.md. Each read takes the word's line from the
     * owner's cache, and an owner running short critical sections back to back pays a miss at its
     * next write; a pass is seen at once anyway (the leader watches its own node every round). At
     * ~0.2 us, 64 threads on 2 carriers, with a read every 32 rounds and passers that kept their
     * slice: 1.04x (0.97-1.11) the non-fair lock; with both changed: 1.44x (1.14-1.77), in the same
     * runs (benchmarks/results/2026-11-24-poll-and-pass; the non-fair lock had slow forks there),
     * and 1.15x (1.03-1.24) in the full targets run after (2026-11-24-targets-poll-pass).
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
     * (SLICE_PAIR): 2.5-3 us on the x86 machine of benchmarks/README.md, about one critical section
     * of the contention benchmark's ~3 us kind. Long enough for the pair's trade (the owner releases
     * and goes on to its outside work); short enough that the partner of an owner that takes the lock
     * straight back (no outside work) soon gives its carrier to the queue's leader.
     */
    static final int PARTNER_SPINS = 128;

    /** A spinning partner reads the lock word once every PARTNER_POLL_MASK + 1 rounds. */
    private static final int PARTNER_POLL_MASK = 7;

    /**
     * REMOTE_TURN: how many times longer a turn lasts when it would end with a pass to a leader that
     * runs on another node than the owner (the pass-after time and the owner's slice both). With two
     * simulated nodes and the JDK's scheduler (each node one carrier, so the spinning leader always
     * runs on the other node): cross-node handoffs 5.5-6.2% against 8.9-9.5% without it, and 193-203
     * against 205-221 ms a round, in 7 forks of 9; the p99 wait rose from 3.0-3.5 to 3.9-4.3 ms
     * (benchmarks/results/2026-11-24-remote-turn, which also has the 2 forks where it did not act).
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

    private static final int HELD = 1;
    private static final int RESERVED = 2;

    private static final VarHandle STATE;
    private static final VarHandle OWNER;
    private static final VarHandle AWAKE;
    private static final VarHandle PARKED_LEADERS;
    private static final VarHandle RESERVER;
    private static final VarHandle SPIN_ROUNDS;
    private static final VarHandle PARTNER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(NumaHandoffLockFields.class, "state", int.class);
            OWNER = lookup.findVarHandle(NumaHandoffLockFields.class, "owner", Thread.class);
            AWAKE = lookup.findVarHandle(NumaHandoffLockFields.class, "awake", int.class);
            PARKED_LEADERS = lookup.findVarHandle(NumaHandoffLockFields.class, "parkedLeaders", int.class);
            RESERVER = lookup.findVarHandle(NumaHandoffLockFields.class, "reserver", Thread.class);
            SPIN_ROUNDS = lookup.findVarHandle(NumaHandoffLockFields.class, "spinRounds", long.class);
            PARTNER = lookup.findVarHandle(NumaHandoffLockFields.class, "partner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final NodeLocator nodes;
    private final HandoffQueue[] queues;
    private final long reserveAfterNanos;
    private final boolean wakeAhead;
    private final boolean oneAwake;
    private final boolean spinWhileOwnerRuns;
    private final boolean timeSlice;
    private final boolean slicePair; // SLICE_PAIR, only with TIME_SLICE
    private final boolean remoteTurn; // REMOTE_TURN, only on several nodes
    private final int inNodeBudget; // 0 when IN_NODE_PASS is off
    private final int maxAwake;
    private final int spins;
    private final long passAfterNanos;
    private final int partnerSpins;

    /** A lock with one queue per node of {@code nodes}, the default reservation threshold and every mechanism. */
    public NumaHandoffLock(NodeLocator nodes) {
        this(nodes, LockSettings.DEFAULTS);
    }

    /** A lock with one queue per node of {@code nodes}, tuned by {@code settings}. */
    public NumaHandoffLock(NodeLocator nodes, LockSettings settings) {
        this(nodes, settings, DEFAULT_IN_NODE_BUDGET, Math.max(1, carriers() - 1), SPINS, DEFAULT_PASS_AFTER_NANOS);
    }

    /**
     * Every knob, for tests and experiments (jcstress uses it to force the parking and reservation
     * paths with zero spins).
     *
     * @param inNodeBudget passes in a row within a node (when IN_NODE_PASS is on), at least 1
     * @param maxAwake     leaders that may spin at once (when ONE_AWAKE_WAITER is on), at least 1
     * @param spins        onSpinWait rounds before a leader parks, at least 0
     * @param passAfterNanos how long a leader must have led before a release passes it the lock (0: always)
     */
    public NumaHandoffLock(
            NodeLocator nodes, LockSettings settings, int inNodeBudget, int maxAwake, int spins, long passAfterNanos) {
        this(nodes, settings, inNodeBudget, maxAwake, spins, passAfterNanos, PARTNER_SPINS);
    }

    /**
     * Every knob and the partner's spin budget (SLICE_PAIR), for tests that need a partner to wait
     * for them.
     *
     * @param partnerSpins onSpinWait rounds a slice holder spins for a held lock, at least 0
     */
    NumaHandoffLock(
            NodeLocator nodes,
            LockSettings settings,
            int inNodeBudget,
            int maxAwake,
            int spins,
            long passAfterNanos,
            int partnerSpins) {
        if (partnerSpins < 0) {
            throw new IllegalArgumentException("partnerSpins must be at least 0: " + partnerSpins);
        }
        this.partnerSpins = partnerSpins;
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        Objects.requireNonNull(settings, "settings");
        if (inNodeBudget < 1 || maxAwake < 1 || spins < 0 || passAfterNanos < 0) {
            throw new IllegalArgumentException("inNodeBudget and maxAwake must be at least 1, spins at least 0: "
                    + inNodeBudget + ", " + maxAwake + ", " + spins);
        }
        int count = nodes.nodeCount();
        if (count < 1) {
            throw new IllegalArgumentException("nodeCount must be at least 1, was " + count);
        }
        Set<HandoffMechanism> on = settings.handoffMechanisms();
        this.reserveAfterNanos = saturatedNanos(settings.reserveAfter());
        this.wakeAhead = on.contains(HandoffMechanism.WAKE_AHEAD);
        this.oneAwake = on.contains(HandoffMechanism.ONE_AWAKE_WAITER);
        this.spinWhileOwnerRuns = on.contains(HandoffMechanism.SPIN_WHILE_OWNER_RUNS);
        this.timeSlice = on.contains(HandoffMechanism.TIME_SLICE);
        this.slicePair = timeSlice && on.contains(HandoffMechanism.SLICE_PAIR);
        this.inNodeBudget = on.contains(HandoffMechanism.IN_NODE_PASS) ? inNodeBudget : 0;
        this.remoteTurn = count > 1 && on.contains(HandoffMechanism.REMOTE_TURN);
        this.maxAwake = maxAwake;
        this.spins = spins;
        this.passAfterNanos = passAfterNanos;
        this.ownerQueue = -1; // and ownerNode null: what every release leaves behind
        this.ownerRunNode = -1;
        this.sliceNanos = SLICE_NANOS;
        this.queues = new HandoffQueue[count];
        for (int i = 0; i < count; i++) {
            queues[i] = new HandoffQueue();
        }
    }

    /** The virtual-thread scheduler's parallelism: its number of carriers. */
    static int carriers() {
        return CarrierPinning.schedulerParallelism();
    }

    @Override
    public void lock() {
        Thread current = Thread.currentThread();
        if (lpOwner() == current) {
            reenter();
        } else if (mayBarge(current) && (casState(0, HELD) || partnerSpin(current))) {
            ownedFast(current);
        } else {
            acquireQueued(current, false, 0L);
        }
    }

    /**
     * Whether an arriving thread may take a free word without queueing: when no leader waits, or when
     * it holds a time slice: it owned the lock last (or, with SLICE_PAIR, the time before that) and
     * its slice, which starts at its first retake, is not over.
     */
    private boolean mayBarge(Thread current) {
        if (!timeSlice || (lvAwake() | lvParkedLeaders()) == 0) {
            return true;
        }
        if (lastOwner != current) {
            return slicePair && prevOwner == current && partnerSliceLeft();
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
        if (!slicePair || (lvAwake() | lvParkedLeaders()) == 0 || (current != lastOwner && current != prevOwner)) {
            return false; // no leader waits (the caller will lead), or no slice to hold
        }
        soPartner(current);
        try {
            for (int i = 0; i < partnerSpins; i++) {
                if ((i & PARTNER_POLL_MASK) == 0) {
                    int s = lvState();
                    if (s == 0) {
                        if (casState(0, HELD)) {
                            return true; // (its slice was checked on the way in; the spin is short)
                        }
                    } else if ((s & RESERVED) != 0 || !MountState.isRunning(loOwner())) {
                        return false; // a starving leader reserved it, or the owner is off its carrier
                    }
                }
                Thread.onSpinWait();
            }
            return false;
        } finally {
            if (PARTNER.getOpaque(this) == current) {
                soPartner(null);
            }
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        Thread current = Thread.currentThread();
        if (lpOwner() == current) {
            reenter();
        } else if (mayBarge(current) && (casState(0, HELD) || partnerSpin(current))) {
            ownedFast(current);
        } else if (acquireQueued(current, true, 0L) != ACQUIRED) {
            throw new InterruptedException();
        }
    }

    /** Takes the lock if it is free now, even if others are queued (barging), unless a leader reserved it. */
    @Override
    public boolean tryLock() {
        Thread current = Thread.currentThread();
        if (lpOwner() == current) {
            reenter();
            return true;
        }
        if (lvState() == 0 && casState(0, HELD)) {
            ownedFast(current);
            return true;
        }
        return false;
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(time);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (tryLock()) {
            return true;
        }
        if (nanos <= 0L) {
            return false;
        }
        long deadline = System.nanoTime() + nanos;
        int outcome = acquireQueued(Thread.currentThread(), true, deadline == 0L ? 1L : deadline);
        if (outcome == INTERRUPTED) {
            throw new InterruptedException();
        }
        return outcome == ACQUIRED;
    }

    @Override
    public void unlock() {
        Thread current = Thread.currentThread();
        if (lpOwner() != current) {
            throw notHeldBy(current);
        }
        if (--holds > 0) {
            return;
        }
        int q = ownerQueue;
        HandoffNode head = ownerNode;
        if (q >= 0) { // came through a queue; after the fast path both are already -1 and null
            ownerNode = null;
            ownerQueue = -1;
        }
        soOwner(null);
        int streak = passes;
        if (inNodeBudget > 0
                && streak < inNodeBudget
                && lvAwake() > 0
                && (lvState() & RESERVED) == 0
                && tryPass(q, streak)) {
            return; // the word stays HELD: the heir owns the lock now
        }
        if (streak != 0) {
            passes = 0;
        }
        int before = releaseState();
        if (head == null && before == HELD && lvParkedLeaders() <= 0) {
            return; // the common case without contention: nobody to wake (small enough to inline)
        }
        afterRelease(head, before, q, streak);
    }

    private IllegalMonitorStateException notHeldBy(Thread current) {
        return new IllegalMonitorStateException(
                "unlock by a thread that does not hold the lock: " + current + " (owner: " + lpOwner() + ")");
    }

    /**
     * In-node pass: CAS the releaser's node leader SPINNING -> OWNER when it is due (a running
     * leader says so itself; without SLICE_PAIR one waiting for a carrier is judged by the clock,
     * with it such a leader is never passed the lock: the pair's trade would stop at a lock held
     * by a thread that cannot run, and the leader takes the free word once it is on a carrier).
     */
    private boolean tryPass(int q, int streak) {
        int n = q >= 0 ? q : queues.length == 1 ? 0 : nodeOfCaller();
        HandoffNode heir = queues[n].lvLeader();
        if (heir != null
                && heir.lvStatus() == HandoffNode.SPINNING
                && (heir.loDue()
                        || (!slicePair && !MountState.isRunning(heir.thread) && ledFor(heir, passAfterNanos)))) {
            if (remoteTurn) {
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
                if (wakeAhead) {
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
        int there = heir.loRunNode();
        if (there < 0) {
            return true;
        }
        int here = ownerRunNode;
        if (here < 0) {
            here = nodeOfCaller();
            ownerRunNode = here;
        }
        return there == here || ledFor(heir, passAfterNanos * REMOTE_TURN_FACTOR);
    }

    /** After the word was released: leadership without wake ahead, the reserver, a parked leader. */
    private void afterRelease(HandoffNode head, int before, int q, int streak) {
        boolean budgetSpent = inNodeBudget > 0 && streak >= inNodeBudget;
        if (head != null) {
            passLeadership(head, queues[head.queue]); // without wake ahead: the successor leads from now
        }
        if ((before & RESERVED) != 0) {
            Thread waiter = lvReserver();
            if (waiter != null) { // null: it has not stored itself yet and will see HELD clear
                LockSupport.unpark(waiter);
            }
            return;
        }
        if (lvParkedLeaders() <= 0) {
            return; // nobody to wake
        }
        int n = q >= 0 ? q : queues.length == 1 ? 0 : nodeOfCaller();
        if (budgetSpent) {
            wakeParkedLeader(n + 1); // another node's turn first
        } else if (!oneAwake || lvAwake() <= 0) {
            wakeParkedLeader(n);
        }
    }

    /**
     * Not supported: this lock has no conditions.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException(
                "NumaHandoffLock has no conditions; use LockType.FAIR_REENTRANT or UNFAIR_REENTRANT for a lock with"
                        + " conditions");
    }

    /** Whether the calling thread holds this lock. */
    public boolean isHeldByCurrentThread() {
        return lpOwner() == Thread.currentThread();
    }

    /** The calling thread's hold count: 0 when it does not hold the lock. */
    public int getHoldCount() {
        return lpOwner() == Thread.currentThread() ? holds : 0;
    }

    /** Whether any thread holds this lock; for monitoring, not for synchronization. */
    public boolean isLocked() {
        return (lvState() & HELD) != 0;
    }

    /** Whether a leader that waited past {@link #reserveAfter()} has reserved this lock; for monitoring. */
    public boolean isReserved() {
        return (lvState() & RESERVED) != 0;
    }

    /** How long a node queue's leader may wait for the lock before it reserves the lock. */
    public Duration reserveAfter() {
        return Duration.ofNanos(reserveAfterNanos);
    }

    /** The number of node queues. */
    public int queueCount() {
        return queues.length;
    }

    /**
     * Whether some thread waits in a node queue now; a hint, for {@link NumaAdaptiveLock}'s decision
     * to leave this lock when it stays unqueued.
     */
    boolean hasQueuedThreads() {
        for (HandoffQueue queue : queues) {
            if (queue.lvTail() != null) {
                return true;
            }
        }
        return false;
    }

    /** Whether the owner-running check sees virtual threads' states (the JVM flag is set). */
    public static boolean ownerRunStateAvailable() {
        return MountState.available();
    }

    /** onSpinWait rounds leaders have spun so far (counted when they stop spinning); for tests and monitoring. */
    long spinRounds() {
        return (long) SPIN_ROUNDS.getOpaque(this);
    }

    /** In-node passes in a row that led to the current owner; for tests, read by the owner in its critical section. */
    int passesInARow() {
        return passes;
    }

    /** The thread of node {@code n}'s current leader, or null; for tests. */
    Thread leaderOf(int n) {
        HandoffNode leader = queues[n].lvLeader();
        if (leader == null) {
            return null;
        }
        int s = leader.lvStatus();
        return s == HandoffNode.SPINNING || s == HandoffNode.LEADER_PARKED ? leader.thread : null;
    }

    /** The slice holder spinning for the lock now (SLICE_PAIR), or null; a hint, for tests. */
    Thread partner() {
        return (Thread) PARTNER.getOpaque(this);
    }

    /** Whether node {@code n}'s leader has said it is due (a release may pass it the lock); for tests. */
    boolean leaderDue(int n) {
        HandoffNode leader = queues[n].lvLeader();
        return leader != null && leader.loDue();
    }

    /** The node node {@code n}'s leader last said it runs on (REMOTE_TURN), or -1; for tests. */
    int leaderRunsOn(int n) {
        HandoffNode leader = queues[n].lvLeader();
        return leader == null ? -1 : leader.loRunNode();
    }

    /** Whether node {@code n}'s leader is awake (spinning); for tests. */
    boolean leaderSpinning(int n) {
        HandoffNode leader = queues[n].lvLeader();
        return leader != null && leader.lvStatus() == HandoffNode.SPINNING;
    }

    @Override
    public String toString() {
        Thread o = lpOwner();
        Thread reserving = lvReserver();
        return super.toString() + (o == null ? "[Unlocked]" : "[Locked by thread " + o.getName() + "]")
                + ((lvState() & RESERVED) == 0
                        ? ""
                        : "[Reserved by thread " + (reserving == null ? "?" : reserving.getName()) + "]")
                + "[queues=" + queues.length + ", awake=" + lvAwake() + "]";
    }

    // ---------------------------------------------------------------------------------------------
    // Slow path

    private static final int ACQUIRED = 0;
    private static final int INTERRUPTED = 1;
    private static final int TIMED_OUT = 2;

    private static final int LEADER = 0;
    private static final int LEADER_INTERRUPTED = 1;
    private static final int GAVE_UP = 2;

    private int nodeOfCaller() {
        int n = nodes.currentNode();
        return n < 0 || n >= queues.length ? 0 : n;
    }

    /**
     * Queues the caller on its node, waits for leadership, then for the lock.
     *
     * @param deadline 0 for none, else the System.nanoTime() to give up at
     * @return ACQUIRED, or INTERRUPTED / TIMED_OUT after the caller left the queue cleanly
     */
    private int acquireQueued(Thread current, boolean interruptible, long deadline) {
        int n = queues.length == 1 ? 0 : nodeOfCaller();
        HandoffQueue queue = queues[n];
        HandoffNode node = new HandoffNode(current, n);
        boolean interrupted = false;
        boolean owns = false;
        HandoffNode pred = queue.xchgTail(node);
        if (pred == null) {
            addAwake(1);
            node.soLeaderSince(System.nanoTime());
            node.svStatus(HandoffNode.SPINNING); // not yet visible to anyone: the leader slot comes next
            queue.svLeader(node);
        } else {
            pred.svNext(node);
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
        if (wakeAhead) {
            if (!node.passed) { // else the passer woke our successor
                passLeadership(node, queue); // the successor wakes while we run the critical section
            }
            owned(current, n, null);
        } else {
            owned(current, n, node);
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
            int s = node.lvStatus();
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
        HandoffQueue queue = queues[node.queue];
        boolean interrupted = false;
        boolean reserved = false;
        long since = System.nanoTime();
        long reserveAt = since + reserveAfterNanos < since ? Long.MAX_VALUE : since + reserveAfterNanos;
        int budget = spins;
        boolean due = false;
        boolean yieldWhileOwnerAway = current.isVirtual();
        int spun = 0;
        for (; ; ) {
            int st = node.lvStatus();
            if (st == HandoffNode.OWNER) { // passed by the previous owner: the word stayed HELD
                node.passed = true;
                addAwake(-1);
                if (reserved) {
                    dropReservation(); // we reserved after the passer looked: the word is ours anyway
                }
                countSpins(spun);
                return interrupted ? LEADER_INTERRUPTED : LEADER;
            }
            if (st == HandoffNode.LEADER_PARKED) { // woken (or timed out, or spurious): count ourselves awake
                addAwake(1);
                if (node.casStatus(HandoffNode.LEADER_PARKED, HandoffNode.SPINNING)) {
                    addParkedLeaders(-1);
                } else {
                    addAwake(-1); // a waker did it and counted us
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
                if (here != node.loRunNode()) {
                    node.soRunNode(here); // only on a change: releasers read this node's line at each release
                }
            }
            if (!due && (passAfterNanos == 0L || System.nanoTime() - node.loLeaderSince() >= passAfterNanos)) {
                due = true; // from now on a release may pass us the lock (it reads this, not the clock)
                node.soDue(true);
            }
            if (budget > 0 && (spun & POLL_MASK) != 0) {
                budget--;
                spun++;
                Thread.onSpinWait();
                continue;
            }
            int s = lvState();
            if (reserved && s == RESERVED) {
                svReserver(null); // only we may leave RESERVED: clear the slot before another can reserve
            }
            if ((s == 0 || (reserved && s == RESERVED)) && casState(s, HELD)) {
                node.svStatus(HandoffNode.OWNER); // no pass can race: passes happen while HELD
                addAwake(-1);
                countSpins(spun);
                return interrupted ? LEADER_INTERRUPTED : LEADER;
            }
            if (deadline != 0L && deadline - System.nanoTime() <= 0L) {
                break;
            }
            if (budget > 0) {
                if (!spinWhileOwnerRuns || MountState.isRunning(loOwner())) {
                    if (!oneAwake || lvAwake() <= maxAwake) {
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
            if (!reserved && (s & RESERVED) == 0 && System.nanoTime() - reserveAt >= 0L && casState(s, s | RESERVED)) {
                svReserver(current); // then re-check the word (the releaser: clear HELD, read reserver)
                reserved = true;
                continue;
            }
            if (node.casStatus(HandoffNode.SPINNING, HandoffNode.LEADER_PARKED)) {
                addParkedLeaders(1);
                addAwake(-1);
                countSpins(spun);
                spun = 0;
                s = lvState(); // re-check after publishing (the releaser: clear HELD, read awake, parkedLeaders)
                if (!(s == 0 || (reserved && s == RESERVED))) {
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
        return nanos == 0L || System.nanoTime() - leader.loLeaderSince() >= nanos;
    }

    /**
     * A leader that leaves without the lock: marks its node CANCELLED, drops its reservation,
     * passes leadership on, and wakes a parked leader if the lock is free.
     *
     * @return false if a pass made it the owner first (it then holds the lock)
     */
    private boolean giveUpLeadership(HandoffNode node, HandoffQueue queue, boolean reserved) {
        for (; ; ) {
            int s = node.lvStatus();
            if (s == HandoffNode.OWNER) {
                node.passed = true;
                addAwake(-1);
                if (reserved) {
                    dropReservation();
                }
                return false;
            }
            if (node.casStatus(s, HandoffNode.CANCELLED)) {
                if (s == HandoffNode.SPINNING) {
                    addAwake(-1);
                } else if (s == HandoffNode.LEADER_PARKED) {
                    addParkedLeaders(-1);
                }
                break;
            }
        }
        if (reserved) {
            cancelReservation();
        }
        passLeadership(node, queue);
        if ((lvState() & HELD) == 0) {
            wakeParkedLeader(node.queue); // a release may have counted on us
        }
        return true;
    }

    /** The owner that had reserved: clear RESERVED (it owns HELD already). */
    private void dropReservation() {
        svReserver(null);
        int s;
        do {
            s = lvState();
        } while (!casState(s, s & ~RESERVED));
    }

    /** A reserving leader that gives up: drop the reservation (the word may be free). */
    private void cancelReservation() {
        svReserver(null);
        int s;
        do {
            s = lvState();
        } while (!casState(s, s & ~RESERVED));
    }

    /**
     * Grants leadership of {@code queue} from {@code head} (owner or leaving leader) to the first
     * live successor, skipping cancelled nodes; with none, empties the queue.
     */
    private void passLeadership(HandoffNode head, HandoffQueue queue) {
        HandoffNode current = head;
        for (; ; ) {
            HandoffNode next = current.lvNext();
            if (next == null) {
                if (queue.casTail(current, null)) {
                    return;
                }
                next = awaitNext(current);
            }
            queue.svLeader(next); // published before it can lead, so releasers find it
            next.soLeaderSince(System.nanoTime());
            addAwake(1);
            if (next.grant()) {
                return;
            }
            addAwake(-1);
            current = next; // cancelled: its thread has left; continue behind it
        }
    }

    /** Waits for the link a successor is about to store: it cannot block in between, so this is short. */
    private static HandoffNode awaitNext(HandoffNode node) {
        HandoffNode next;
        int spins = LINK_SPINS;
        while ((next = node.lvNext()) == null) {
            if (spins > 0) {
                spins--;
                Thread.onSpinWait();
            } else {
                Thread.yield(); // the linking thread may be on this carrier's waiting list
            }
        }
        return next;
    }

    /** Wakes one parked leader, looking at queue {@code from} first, then the others in order. */
    private void wakeParkedLeader(int from) {
        HandoffQueue[] qs = queues;
        int count = qs.length;
        for (int i = 0; i < count; i++) {
            int n = (from + i) % count;
            HandoffNode leader = qs[n].lvLeader();
            if (leader != null && leader.lvStatus() == HandoffNode.LEADER_PARKED) {
                addAwake(1);
                if (leader.casStatus(HandoffNode.LEADER_PARKED, HandoffNode.SPINNING)) {
                    addParkedLeaders(-1);
                    LockSupport.unpark(leader.thread);
                    return;
                }
                addAwake(-1);
                if (leader.lvStatus() == HandoffNode.SPINNING) {
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

    private static int giveUpReason(long deadline) {
        return deadline != 0L && deadline - System.nanoTime() <= 0L ? TIMED_OUT : INTERRUPTED;
    }

    private void owned(Thread current, int queue, HandoffNode node) {
        ownedFast(current);
        if (slicePair) {
            sliceStart = NO_SLICE; // through the queue: a new slice, even for the previous owner
        }
        ownerQueue = queue;
        ownerNode = node;
        ownerRunNode = -1; // it may run elsewhere than when it last owned the lock
    }

    /** Owner by the fast path: ownerQueue and ownerNode are still -1 and null, as every release leaves them. */
    private void ownedFast(Thread current) {
        soOwner(current);
        if (lastOwner != current) {
            if (slicePair) { // the last owner becomes the previous one, with its slice
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

    private void reenter() {
        if (holds == Integer.MAX_VALUE) {
            throw new Error("Maximum lock count exceeded");
        }
        holds++;
    }

    private void countSpins(int spun) {
        if (spun > 0) {
            SPIN_ROUNDS.getAndAdd(this, (long) spun);
        }
    }

    private Thread lpOwner() {
        return owner;
    }

    private Thread loOwner() {
        return (Thread) OWNER.getOpaque(this);
    }

    private void soOwner(Thread thread) {
        OWNER.setOpaque(this, thread);
    }

    private void soPartner(Thread thread) {
        PARTNER.setOpaque(this, thread);
    }

    private int lvParkedLeaders() {
        return (int) PARKED_LEADERS.getVolatile(this);
    }

    private void addParkedLeaders(int delta) {
        PARKED_LEADERS.getAndAdd(this, delta);
    }

    private int lvAwake() {
        return (int) AWAKE.getVolatile(this);
    }

    private void addAwake(int delta) {
        AWAKE.getAndAdd(this, delta);
    }

    private int lvState() {
        return (int) STATE.getVolatile(this);
    }

    private boolean casState(int expect, int update) {
        return STATE.compareAndSet(this, expect, update);
    }

    /** Clears HELD, returning the state before. */
    private int releaseState() {
        return (int) STATE.getAndAdd(this, -HELD);
    }

    private Thread lvReserver() {
        return (Thread) RESERVER.getVolatile(this);
    }

    private void svReserver(Thread waiter) {
        RESERVER.setVolatile(this, waiter);
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}

/** Queue node of one slow-path acquisition of a {@link NumaHandoffLock}. */
final class HandoffNode {
    static final int FOLLOWING = 0;
    static final int FOLLOWING_PARKED = 1;
    static final int SPINNING = 2;
    static final int LEADER_PARKED = 3;
    static final int OWNER = 4;
    static final int CANCELLED = 5;

    private static final VarHandle NEXT;
    private static final VarHandle STATUS;
    private static final VarHandle LEADER_SINCE;
    private static final VarHandle DUE;
    private static final VarHandle RUN_NODE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            NEXT = lookup.findVarHandle(HandoffNode.class, "next", HandoffNode.class);
            STATUS = lookup.findVarHandle(HandoffNode.class, "status", int.class);
            LEADER_SINCE = lookup.findVarHandle(HandoffNode.class, "leaderSince", long.class);
            DUE = lookup.findVarHandle(HandoffNode.class, "due", boolean.class);
            RUN_NODE = lookup.findVarHandle(HandoffNode.class, "runNode", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Thread thread; // the waiting thread, set at construction
    final int queue; // index of the queue this node joined, set at construction
    private HandoffNode next; // set once (volatile) by the successor after its tail swap; read by this node's departer
    boolean passed; // by its own thread only: it was passed the lock (the passer woke its successor)
    private int status; // CAS by its thread, by granters (-> SPINNING), wakers (-> SPINNING), passers (-> OWNER)
    private boolean due; // opaque, by its own thread as leader once it has led passAfterNanos; read opaque by releasers
    private long leaderSince; // opaque, by whoever makes it leader (before the status CAS); read opaque by releasers
    private int runNode = -1; // opaque, by its own thread as leader (REMOTE_TURN): where it runs; read by releasers

    HandoffNode(Thread thread, int queue) {
        this.thread = thread;
        this.queue = queue;
    }

    HandoffNode lvNext() {
        return (HandoffNode) NEXT.getVolatile(this);
    }

    void svNext(HandoffNode successor) {
        NEXT.setVolatile(this, successor);
    }

    int lvStatus() {
        return (int) STATUS.getVolatile(this);
    }

    boolean loDue() {
        return (boolean) DUE.getOpaque(this);
    }

    void soDue(boolean value) {
        DUE.setOpaque(this, value);
    }

    int loRunNode() {
        return (int) RUN_NODE.getOpaque(this);
    }

    void soRunNode(int node) {
        RUN_NODE.setOpaque(this, node);
    }

    long loLeaderSince() {
        return (long) LEADER_SINCE.getOpaque(this);
    }

    void soLeaderSince(long nanoTime) {
        LEADER_SINCE.setOpaque(this, nanoTime);
    }

    void svStatus(int value) {
        STATUS.setVolatile(this, value);
    }

    boolean casStatus(int expect, int update) {
        return STATUS.compareAndSet(this, expect, update);
    }

    /** By the departing leader or the wake-ahead owner: makes this node leader (awake); false if cancelled. */
    boolean grant() {
        for (; ; ) {
            int s = lvStatus();
            if (s == CANCELLED) {
                return false;
            }
            if (casStatus(s, SPINNING)) {
                if (s == FOLLOWING_PARKED) {
                    LockSupport.unpark(thread);
                }
                return true;
            }
        }
    }

    /** By its thread, still a follower: gives up its place; false if leadership was granted first. */
    boolean cancelFollowing() {
        for (; ; ) {
            int s = lvStatus();
            if (s != FOLLOWING && s != FOLLOWING_PARKED) {
                return false;
            }
            if (casStatus(s, CANCELLED)) {
                return true;
            }
        }
    }
}

/** One node's MCS queue and its published leader, padded to keep it off its neighbours' lines. */
final class HandoffQueue extends HandoffQueueL1Pad {
    private static final VarHandle TAIL;
    private static final VarHandle LEADER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(HandoffQueueFields.class, "tail", HandoffNode.class);
            LEADER = lookup.findVarHandle(HandoffQueueFields.class, "leader", HandoffNode.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    HandoffNode xchgTail(HandoffNode node) {
        return (HandoffNode) TAIL.getAndSet(this, node);
    }

    boolean casTail(HandoffNode expect, HandoffNode update) {
        return TAIL.compareAndSet(this, expect, update);
    }

    HandoffNode lvTail() {
        return (HandoffNode) TAIL.getVolatile(this);
    }

    HandoffNode lvLeader() {
        return (HandoffNode) LEADER.getVolatile(this);
    }

    void svLeader(HandoffNode node) {
        LEADER.setVolatile(this, node);
    }
}

abstract class HandoffQueueL0Pad {
    byte q0000, q0001, q0002, q0003, q0004, q0005, q0006, q0007, q0008, q0009, q0010, q0011, q0012, q0013, q0014, q0015;
    byte q0016, q0017, q0018, q0019, q0020, q0021, q0022, q0023, q0024, q0025, q0026, q0027, q0028, q0029, q0030, q0031;
    byte q0032, q0033, q0034, q0035, q0036, q0037, q0038, q0039, q0040, q0041, q0042, q0043, q0044, q0045, q0046, q0047;
    byte q0048, q0049, q0050, q0051, q0052, q0053, q0054, q0055, q0056, q0057, q0058, q0059, q0060, q0061, q0062, q0063;
    byte q0064, q0065, q0066, q0067, q0068, q0069, q0070, q0071, q0072, q0073, q0074, q0075, q0076, q0077, q0078, q0079;
    byte q0080, q0081, q0082, q0083, q0084, q0085, q0086, q0087, q0088, q0089, q0090, q0091, q0092, q0093, q0094, q0095;
    byte q0096, q0097, q0098, q0099, q0100, q0101, q0102, q0103, q0104, q0105, q0106, q0107, q0108, q0109, q0110, q0111;
    byte q0112, q0113, q0114, q0115, q0116, q0117, q0118, q0119, q0120, q0121, q0122, q0123, q0124, q0125, q0126, q0127;
}

abstract class HandoffQueueFields extends HandoffQueueL0Pad {
    HandoffNode tail; // xchg by enqueuing threads of this node; CAS to null by a departing leader or owner
    HandoffNode leader; // volatile, by whoever makes a node leader (before it may lead); read by releasers
}

abstract class HandoffQueueL1Pad extends HandoffQueueFields {
    byte q1000, q1001, q1002, q1003, q1004, q1005, q1006, q1007, q1008, q1009, q1010, q1011, q1012, q1013, q1014, q1015;
    byte q1016, q1017, q1018, q1019, q1020, q1021, q1022, q1023, q1024, q1025, q1026, q1027, q1028, q1029, q1030, q1031;
    byte q1032, q1033, q1034, q1035, q1036, q1037, q1038, q1039, q1040, q1041, q1042, q1043, q1044, q1045, q1046, q1047;
    byte q1048, q1049, q1050, q1051, q1052, q1053, q1054, q1055, q1056, q1057, q1058, q1059, q1060, q1061, q1062, q1063;
    byte q1064, q1065, q1066, q1067, q1068, q1069, q1070, q1071, q1072, q1073, q1074, q1075, q1076, q1077, q1078, q1079;
    byte q1080, q1081, q1082, q1083, q1084, q1085, q1086, q1087, q1088, q1089, q1090, q1091, q1092, q1093, q1094, q1095;
    byte q1096, q1097, q1098, q1099, q1100, q1101, q1102, q1103, q1104, q1105, q1106, q1107, q1108, q1109, q1110, q1111;
    byte q1112, q1113, q1114, q1115, q1116, q1117, q1118, q1119, q1120, q1121, q1122, q1123, q1124, q1125, q1126, q1127;
}

abstract class NumaHandoffLockL0Pad {
    byte p0000, p0001, p0002, p0003, p0004, p0005, p0006, p0007, p0008, p0009, p0010, p0011, p0012, p0013, p0014, p0015;
    byte p0016, p0017, p0018, p0019, p0020, p0021, p0022, p0023, p0024, p0025, p0026, p0027, p0028, p0029, p0030, p0031;
    byte p0032, p0033, p0034, p0035, p0036, p0037, p0038, p0039, p0040, p0041, p0042, p0043, p0044, p0045, p0046, p0047;
    byte p0048, p0049, p0050, p0051, p0052, p0053, p0054, p0055, p0056, p0057, p0058, p0059, p0060, p0061, p0062, p0063;
    byte p0064, p0065, p0066, p0067, p0068, p0069, p0070, p0071, p0072, p0073, p0074, p0075, p0076, p0077, p0078, p0079;
    byte p0080, p0081, p0082, p0083, p0084, p0085, p0086, p0087, p0088, p0089, p0090, p0091, p0092, p0093, p0094, p0095;
    byte p0096, p0097, p0098, p0099, p0100, p0101, p0102, p0103, p0104, p0105, p0106, p0107, p0108, p0109, p0110, p0111;
    byte p0112, p0113, p0114, p0115, p0116, p0117, p0118, p0119, p0120, p0121, p0122, p0123, p0124, p0125, p0126, p0127;
}

abstract class NumaHandoffLockFields extends NumaHandoffLockL0Pad {
    int state; // HELD|RESERVED: CAS by acquirers and the reserver, getAndAdd(-HELD) by the owner
    Thread owner; // opaque store by the owner after it owns and before it releases; opaque load by spinners
    int holds; // plain, owner only: reentrant hold count
    int ownerQueue; // plain, owner only: the queue it came through, -1 after the fast path
    HandoffNode ownerNode; // plain, owner only: its node while it still heads its queue (no wake ahead)
    int passes; // plain, owner only, handed on with the lock (the pass CAS or the release orders it)
    int awake; // getAndAdd by leaders, granters, wakers; read volatile by releasers and spinners
    int parkedLeaders; // getAndAdd by a leader parking and by whoever takes it out of LEADER_PARKED; read by releasers
    Thread reserver; // volatile, by the leader that set RESERVED (itself, then null); read volatile by releasers
    long spinRounds; // getAndAdd by leaders when they stop spinning; read opaque by spinRounds()
    long sliceStart; // plain: NO_SLICE for a new owner, the clock at its first retake, SLICE_OVER once it passed
    int sliceCount; // plain, by the last owner as it takes the word again
    Thread lastOwner; // plain, by each owner; read plain by arriving threads: who holds the time slice
    Thread prevOwner; // plain, by each owner (SLICE_PAIR): the owner before lastOwner, the other slice holder
    long prevSliceStart; // plain, by owners and by prevOwner at its first retake: prevOwner's slice
    Thread partner; // opaque, by a slice holder while it spins for the lock (SLICE_PAIR); a hint for tests
    int ownerRunNode; // plain, owner only (REMOTE_TURN): its node, looked up at its first pass decision; -1 before
    long sliceNanos; // plain, owner only: its slice's length, longer while it keeps a leader of another node waiting
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
}
