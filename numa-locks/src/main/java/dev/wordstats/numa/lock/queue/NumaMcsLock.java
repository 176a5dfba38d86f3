package dev.wordstats.numa.lock.queue;

import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A reentrant mutual-exclusion lock for virtual threads on NUMA machines: one MCS queue per NUMA
 * node plus one global flag. Threads on one node queue behind each other and only the head of each
 * node's queue competes for the flag, so under contention the lock tends to pass between threads
 * of one node, and its cache lines (and the data it guards) stay on that node.
 *
 * <p>A drop-in for a non-fair {@link ReentrantLock}: {@link #lock}, {@link #lockInterruptibly},
 * {@link #tryLock()}, {@link #tryLock(long, TimeUnit)} and {@link #unlock} keep the {@link Lock}
 * contract; the lock is reentrant (up to {@link Integer#MAX_VALUE} holds) and {@link #unlock} by a
 * thread that does not hold it throws {@link IllegalMonitorStateException}. A waiter that times out
 * or is interrupted leaves its queue without losing a wakeup for those behind it.
 *
 * <p>Not fair, but starvation-free: an arriving thread may take a free lock ahead of queued ones
 * (as with a non-fair {@code ReentrantLock}), and among the node queues the one whose head gets the
 * flag first wins; but a queue leader that has waited for the lock longer than the reservation
 * threshold ({@link #DEFAULT_RESERVE_AFTER}, 1 ms, the bound of Go's {@code sync.Mutex}) reserves it, and
 * the next release hands it to that leader: until then {@link #tryLock()} and arriving threads
 * do not get it. Its {@link Condition}s ({@link #newCondition()}) keep the JDK's contract: an
 * await releases every hold and takes the lock again, through the queue, before it returns.
 *
 * <p>Waiting threads spin a little ({@link Thread#onSpinWait()}) and then park, so a waiting virtual
 * thread gives its carrier back; no thread spins without bound.
 */
public final class NumaMcsLock extends NumaMcsLockL1Pad implements Lock {

    /*
     * Overview
     *
     * The lock is the hierarchical queue lock of the thesis this project comes from ("locks for
     * virtual threads on NUMA ARM servers"), built from two classic parts:
     *  - MCS queues (Mellor-Crummey & Scott, "Algorithms for Scalable Synchronization on
     *    Shared-Memory Multiprocessors", ACM TOCS 1991): each waiter spins on its own queue node,
     *    and the queue is a singly linked list reached by an atomically swapped tail;
     *  - one queue per NUMA node with a global lock on top, as in the NUMA-aware cohort locks
     *    (Dice, Marathe & Shavit, "Lock Cohorting", PPoPP 2012) and HMCS (Chabbi, Fagan &
     *    Mellor-Crummey, PPoPP 2015). Here the global lock is a test-and-test-and-set flag.
     * Abortable queue nodes follow Scott & Scherer ("Scalable Queue-Based Spin Locks with
     * Timeout", PPoPP 2001): a leaving waiter marks its node and its predecessor skips it. The
     * park/unpark handshake is that of AbstractQueuedSynchronizer.
     *
     * State (the word, the owner fields, the queue and its nodes are shared with NumaHandoffLock:
     * QueueLockFields, NodeQueue, QueueNode)
     *  - state: bit HELD (1) set while the lock is held, bit RESERVED (2) while a starving leader
     *    reserves it. The owner is whoever set HELD by CAS (from 0, or from RESERVED by the leader
     *    that reserved it); only the owner clears HELD (atomic add). owner/holds/ownerNode are
     *    written by the owner only (plain), after the CAS and before the release, so the CAS/RMW
     *    pair orders them between successive owners.
     *  - reserver: the leader that set RESERVED, for the releaser to unpark.
     *  - queues[n]: node n's MCS queue (tail), the slot where its leader publishes its node before
     *    parking on the flag (leader, null while no leader of n parks), and the count of handoffs
     *    in a row within the node (localStreak).
     *  - parkedLeaders: how many leaders are published, so that a release with none (the common
     *    case at low contention) reads one word on the line it just wrote instead of every queue.
     *  - QueueNode.status: FOLLOWING -> FOLLOWING_PARKED (by its thread, before parking),
     *    FOLLOWING|FOLLOWING_PARKED -> LEADING (by the predecessor, granting),
     *    FOLLOWING|FOLLOWING_PARKED -> CANCELLED (by its thread, giving up). LEADING and CANCELLED
     *    are final; the CAS decides a race between granting and cancelling.
     *
     * lock()
     *  1. Reentry: owner == current thread -> holds++.
     *  2. Fast path: CAS state 0 -> 1 (barging, as a non-fair ReentrantLock does).
     *  3. Slow path: append a QueueNode to the queue of the caller's node (getAndSet tail, then
     *     link pred.next). With no predecessor the caller is that node's leader at once; otherwise it
     *     waits for its predecessor to grant it LEADING: spin up to SPINS times, then CAS its
     *     status FOLLOWING -> FOLLOWING_PARKED, re-check, and park.
     *  4. The leader competes for the flag: read state, CAS 0 -> 1 when it reads 0, up to SPINS
     *     times; then it publishes its node in its queue's leader slot, increments parkedLeaders,
     *     re-checks the flag once more, and parks.
     *     Having won, it clears the slot and stays at the head of its queue until it unlocks.
     *  5. Starvation: a published leader about to park again, once reserveAfter has passed
     *     since it first published itself, reserves the lock: it sets RESERVED by CAS (only if no
     *     one else has), stores itself in reserver, re-reads state and parks. The clock
     *     starts at leadership, not at enqueueing: the wait in the node's queue is FIFO and
     *     bounded by the leaders ahead, and counting it would make every leader of a long queue
     *     reserve at once, handing the lock from node to node and defeating the local handoffs.
     *     Every acquisition CASes from 0 only, so the reservation blocks bargers, tryLock and
     *     other leaders; the release clears HELD and unparks reserver, which CASes RESERVED ->
     *     HELD (only it may). This is the handoff of Linux's mutex and Go's sync.Mutex starvation
     *     mode. Until the reserving leader runs the lock is idle: the price of the bound, paid at
     *     most once per reserveAfter per starving leader.
     *
     * unlock()
     *  1. holds--; at zero: forget the owner, then clear HELD (getAndAdd). If RESERVED was set,
     *     unpark reserver and skip step 3 (nobody else can take the lock before it does).
     *  2. If the owner came through a queue, it grants LEADING to its first live successor, skipping
     *     CANCELLED nodes, or, with none, swings the tail back to null (CAS; if that fails a
     *     successor is linking in and will appear in next shortly).
     *  3. If it granted no successor, or it has granted LOCAL_HANDOFF_BUDGET successors in a row
     *     on its node, and parkedLeaders > 0, it unparks one parked leader, looking at its own
     *     node first (the next node when the budget is spent) and then the others in order. The budget gives
     *     leaders of other nodes a chance to win the flag while
     *     one node keeps its queue full.
     *
     * Invariants of the queue lock (each with the test that checks it)
     *  - Mutual exclusion: only a CAS that sets HELD makes an owner (from 0, or from RESERVED by the
     *    leader that set RESERVED); only the owner clears HELD.
     *    // checked by NumaMcsLockContractTest.mutualExclusionKeepsNonAtomicCounterExact,
     *    // NumaMcsLockMutualExclusionTests.SameNode/CrossNode, NumaMcsLockHandoffTests (jcstress)
     *  - At most one leader per node queue: leadership starts at the queue's first node (empty
     *    queue at enqueue) and is passed only by the departing leader to one successor.
     *    // checked by NumaMcsLockMutualExclusionTests.RepeatedAcquisition, NumaMcsLockQueueTests
     *    // (jcstress; 3-4 actors, run where there are that many CPUs)
     *  - No lost wakeup, leader side (a Dekker pattern, both sides volatile): a leader stores
     *    its queue's leader slot, increments parkedLeaders and then reads state; a releaser clears
     *    HELD (getAndAdd(-HELD)) and then reads parkedLeaders and, when positive, the leader
     *    slots. At least one of them sees the other's write, so either the leader does not park or
     *    the releaser unparks it. A releaser that grants no successor always wakes a parked leader
     *    if one is published, so a free flag with parked leaders and no running competitor cannot
     *    persist. // checked by NumaMcsLockContractTest.releaseChainWakesEveryWaiter,
     *    // NumaMcsLockMutualExclusionTests.CrossNode
     *  - No lost wakeup, queue side: a waiter parks only after its CAS FOLLOWING ->
     *    FOLLOWING_PARKED; a granter that overwrites FOLLOWING_PARKED with LEADING unparks it. A
     *    waiter whose CAS fails re-reads LEADING.
     *    // checked by NumaMcsLockContractTest.releaseChainWakesEveryWaiter
     *  - A leader that gives up (timeout, interrupt) passes leadership on exactly as an unlock
     *    does, and wakes a parked leader if it has no successor.
     *    // checked by NumaMcsLockContractTest.timeoutAndInterruptStormEndsWithEveryThreadDoneAndCounterExact,
     *    // NumaMcsLockTryLockTests.TimedTryLockVsLock
     *  - Bounded spinning: no waiter keeps a carrier while the owner needs one.
     *    // checked by NumaMcsLockNoHangTest
     *
     * Invariants of the reservation (step 5)
     *  - At most one reservation: RESERVED is set by CAS only when clear, and cleared only by the
     *    leader that set it (taking the lock, or giving up); while it is set no CAS from 0 (barger,
     *    tryLock, other leader) succeeds. // checked by
     *    // NumaMcsLockTest.aWaiterPastTheReservationThresholdReservesTheLockAgainstBargers,
     *    // NumaMcsLockReservationTests.ReservationRacesRelease (jcstress)
     *  - No lost wakeup, reservation side (Dekker again): the reserving leader stores reserver
     *    after its CAS and then re-reads state; the releaser's RMW clears HELD and then it reads
     *    reserver. Either the leader sees HELD clear and takes the lock, or the releaser sees
     *    the leader and unparks it. // checked by NumaMcsLockReservationTests.ReservationRacesRelease,
     *    // NumaMcsLockEagerReservationContractTest (all)
     *  - A reserving leader that gives up clears reserver, then RESERVED, and wakes a parked leader
     *    if the lock is then free (a release meanwhile woke only it): no reservation outlives its
     *    leader. // checked by NumaMcsLockTest.reservingLeadersThatGiveUpLeaveTheLockUsable,
     *    // NumaMcsLockReservationTests.ReservationRacesTimeout
     *
     * Progress and fairness
     *  - Within a node, queued threads become leader in FIFO order.
     *  - Across nodes and against barging arrivals there is no FIFO guarantee: like a non-fair
     *    ReentrantLock the lock favours throughput. But no leader is overtaken for long: the
     *    local handoff budget bounds how long a node can keep other nodes' parked leaders asleep,
     *    and the reservation (step 5) bounds how often a woken leader can then lose the race: after
     *    reserveAfter, one more critical section at most. A queued thread's wait is bounded by
     *    those of the leaders ahead of it in its node's FIFO queue.
     *  - Spinning is bounded everywhere (SPINS onSpinWait calls, then park; the only other wait is
     *    for a successor's next link, whose writer is between two plain stores and cannot block,
     *    and that wait yields after SPINS). A virtual thread never holds its carrier for long
     *    while waiting, which matters because carriers are few and not time-sliced: a spinning
     *    virtual thread could otherwise keep the lock holder from being scheduled.
     *
     * Accepted races
     *  - A leader slot may name a leader that has just won or given up; unparking it then only
     *    leaves a spare permit, which every park loop tolerates (it re-checks and parks again).
     *  - A woken leader may lose the flag to a barging thread and park again; the barger's
     *    unlock wakes a parked leader in turn.
     *  - The node from NodeLocator is a hint read once per slow-path acquisition; a virtual thread
     *    that migrates keeps the queue it joined. A wrong node costs locality, not correctness.
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
     * Memory modes: see package-info (accessors named for their access mode; VarHandles private).
     * Padding: state and the owner fields share one 128-byte-padded block (QueueLockL0Pad,
     * QueueLockFields, NumaMcsLockL1Pad), each node's
     * queue is a separately padded object, so no two hot fields of different writers share a
     * cache line pair (128 bytes, the unit of adjacent-line prefetch on x86 and of the line on
     * some ARM servers).
     */

    /** onSpinWait rounds before a waiter parks (and before a releaser yields waiting for a link). */
    static final int SPINS = 128;

    /** Consecutive handoffs inside one node after which the releaser also wakes another node's leader. */
    static final int LOCAL_HANDOFF_BUDGET = 64;

    /** How long a node queue's leader may wait for the lock before it reserves the lock. */
    public static final Duration DEFAULT_RESERVE_AFTER = Duration.ofMillis(1);

    private final NodeLocator nodes;
    private final NodeQueue[] queues;
    private final long reserveAfterNanos;

    /**
     * A lock with one queue per node of {@code nodes} and the {@link #DEFAULT_RESERVE_AFTER
     * default reservation threshold}.
     *
     * @param nodes tells the node of the calling thread; {@link NodeLocator#singleNode()} makes
     *              this a single-queue MCS lock with a flag
     */
    public NumaMcsLock(NodeLocator nodes) {
        this(nodes, DEFAULT_RESERVE_AFTER);
    }

    /**
     * A lock with one queue per node of {@code nodes}.
     *
     * @param nodes        tells the node of the calling thread
     * @param reserveAfter how long the leader of a node queue may wait for the lock (after its
     *                     spin) before it reserves the lock for itself (shorter: fairer, more
     *                     idle handoffs; zero reserves whenever a leader parks)
     */
    public NumaMcsLock(NodeLocator nodes, Duration reserveAfter) {
        this(nodes, reserveAfter, LockProbe.NONE);
    }

    /**
     * A lock with one queue per node of {@code nodes}, reporting its acquisitions, releases (when the
     * probe is timed) and reservations to {@code probe} ({@link LockProbe#NONE} for none).
     */
    public NumaMcsLock(NodeLocator nodes, Duration reserveAfter, LockProbe probe) {
        super(probe);
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        Objects.requireNonNull(reserveAfter, "reserveAfter");
        if (reserveAfter.isNegative()) {
            throw new IllegalArgumentException("reserveAfter must not be negative, was " + reserveAfter);
        }
        this.reserveAfterNanos = saturatedNanos(reserveAfter);
        int count = nodes.nodeCount();
        if (count < 1) {
            throw new IllegalArgumentException("nodeCount must be at least 1, was " + count);
        }
        this.queues = new NodeQueue[count];
        for (int i = 0; i < count; i++) {
            queues[i] = new NodeQueue();
        }
    }

    @Override
    public void lock() {
        Thread current = Thread.currentThread();
        long asked = askedAt();
        if (owner == current) {
            reenter();
        } else if (!casState(0, HELD)) {
            acquireQueued(current, false, 0L);
        } else {
            owned(current, null);
            if (fastReported()) {
                reportAcquired(false, asked);
            }
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        Thread current = Thread.currentThread();
        long asked = askedAt();
        if (owner == current) {
            reenter();
        } else if (!casState(0, HELD)) {
            if (acquireQueued(current, true, 0L) != ACQUIRED) {
                throw new InterruptedException();
            }
        } else {
            owned(current, null);
            if (fastReported()) {
                reportAcquired(false, asked);
            }
        }
    }

    /** Takes the lock if it is free now, even if others are queued (barging), unless a starving leader reserved it. */
    @Override
    public boolean tryLock() {
        Thread current = Thread.currentThread();
        if (owner == current) {
            reenter();
            return true;
        }
        long asked = askedAt();
        if (stateVolatile() == 0 && casState(0, HELD)) {
            owned(current, null);
            if (fastReported()) {
                reportAcquired(false, asked);
            }
            return true;
        }
        return false;
    }

    @Override
    public void unlock() {
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
        QueueNode node = ownerNode;
        if (reported || node != null && probe != null && waitReleaseHeard()) { // only a queued owner asks
            reported = true;
            held = System.nanoTime() - probeAcquiredAt; // read before the release lets another owner in
            wait = probeWait;
            slow = probeWaited != 0;
        }
        ownerNode = null;
        owner = null;
        if (node == null) {
            if (!release() && parkedLeadersVolatile() > 0) {
                wakeParkedLeader(queues.length == 1 ? 0 : nodes.currentNode());
            }
            if (reported) {
                reportReleased(slow, wait, held);
            }
            return;
        }
        // Still this queue's leader: count the handoff before anyone else may become leader.
        NodeQueue queue = queues[node.queue];
        int streak = queue.localStreak + 1;
        boolean budgetSpent = streak >= LOCAL_HANDOFF_BUDGET;
        queue.localStreak = budgetSpent ? 0 : streak;
        boolean handedOff = release();
        QueueNode successor = passLeadership(node, queue);
        if (!handedOff && (successor == null || budgetSpent) && parkedLeadersVolatile() > 0) {
            wakeParkedLeader(successor == null ? node.queue : node.queue + 1);
        }
        if (reported) {
            reportReleased(slow, wait, held);
        }
    }

    /** Clears HELD; if a starving leader reserved the lock, unparks it and returns true. */
    private boolean release() {
        if ((releaseState() & RESERVED) == 0) {
            return false;
        }
        unparkReserver();
        return true;
    }

    /** How long a node queue's leader may wait for the lock before it reserves the lock. */
    public Duration reserveAfter() {
        return Duration.ofNanos(reserveAfterNanos);
    }

    /** The number of node queues. */
    public int queueCount() {
        return queues.length;
    }

    @Override
    public String toString() {
        return super.toString() + ownerAndReserver() + "[queues=" + queues.length + ", parkedLeaders="
                + parkedLeadersVolatile() + "]";
    }

    // ---------------------------------------------------------------------------------------------
    // Slow path

    /** Queues the caller on its node, waits for leadership, then competes for the flag. */
    @Override
    int acquireQueued(Thread current, boolean interruptible, long deadline) {
        long asked = waitAskedAt(); // a waiting acquisition is timed when its probe wants it
        int n = nodes.currentNode();
        if (n < 0 || n >= queues.length) {
            n = 0;
        }
        NodeQueue queue = queues[n];
        QueueNode node = new QueueNode(current, n);
        QueueNode pred = queue.getAndSetTail(node);
        boolean interrupted = false;
        if (pred == null) {
            queue.localStreak = 0; // first leader of a fresh queue: the previous leader emptied it (tail CAS) first
        } else {
            pred.setNextVolatile(node);
            int outcome = awaitLeadership(node, interruptible, deadline);
            if (outcome == GAVE_UP) {
                leave(node, queue);
                return giveUpReason(deadline);
            }
            interrupted = outcome == LEADER_INTERRUPTED;
        }
        int outcome = competeForFlag(current, node, interruptible, deadline);
        if (outcome == GAVE_UP) {
            departAsLeader(node, queue);
            return giveUpReason(deadline);
        }
        owned(current, node);
        if (probe != null) {
            reportAcquired(true, asked);
        }
        if (interrupted || outcome == LEADER_INTERRUPTED) {
            current.interrupt(); // lock() is not interruptible: restore the status we cleared
        }
        return ACQUIRED;
    }

    /** Waits until the predecessor grants {@code node} leadership, or the caller gives up. */
    private static int awaitLeadership(QueueNode node, boolean interruptible, long deadline) {
        boolean interrupted = false;
        int spins = SPINS;
        for (; ; ) {
            int s = node.statusVolatile();
            if (s == QueueNode.LEADING) {
                return interrupted ? LEADER_INTERRUPTED : LEADER;
            }
            if (deadline != 0L && deadline - System.nanoTime() <= 0L) {
                return GAVE_UP;
            }
            if (spins > 0) {
                spins--;
                Thread.onSpinWait();
            } else if (s == QueueNode.FOLLOWING) {
                // Publish, then re-check before parking.
                node.casStatus(QueueNode.FOLLOWING, QueueNode.FOLLOWING_PARKED);
            } else {
                park(node, deadline);
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
     * As its queue's leader, takes the flag, or gives up; reserves it (RESERVED) when it finds
     * the flag taken {@code reserveAfterNanos} or more after it first parked for it.
     */
    private int competeForFlag(Thread current, QueueNode node, boolean interruptible, long deadline) {
        NodeQueue queue = queues[node.queue];
        boolean interrupted = false;
        boolean published = false;
        boolean reserved = false;
        long since = 0L; // when this leader published itself to park
        int spins = SPINS;
        for (; ; ) {
            int s = stateVolatile();
            if (takeWord(s, reserved)) {
                if (published) {
                    unpublish(queue);
                }
                return interrupted ? LEADER_INTERRUPTED : LEADER;
            }
            if (deadline != 0L && deadline - System.nanoTime() <= 0L) {
                break;
            }
            if (spins > 0) {
                spins--;
                Thread.onSpinWait();
            } else if (!published) {
                // Publish, then re-check the flag before parking (the releaser's side: store 0, read).
                queue.setLeaderVolatile(node);
                getAndAddParkedLeaders(1);
                published = true;
                since = System.nanoTime();
            } else if (!reserved
                    && (s & RESERVED) == 0
                    && System.nanoTime() - since >= reserveAfterNanos
                    && reserve(s, current)) {
                // Reserved and stored ourselves: re-check the flag before parking (the releaser's
                // side: clear HELD, read reserver).
                reserved = true;
                if (probe != null) {
                    probe.reserved(node.queue);
                }
            } else {
                park(this, deadline);
                if (Thread.interrupted()) {
                    if (interruptible) {
                        break;
                    }
                    interrupted = true;
                }
            }
        }
        if (published) {
            unpublish(queue);
        }
        if (reserved) {
            cancelReservation(node.queue);
        }
        return GAVE_UP;
    }

    /**
     * A reserving leader of queue {@code n} that gives up: drop the reservation; if the lock is free, wake a
     * leader.
     */
    private void cancelReservation(int n) {
        int s = clearReservation();
        // A release while we held the reservation woke only us: pass that wake-up on.
        if ((s & HELD) == 0 && parkedLeadersVolatile() > 0) {
            wakeParkedLeader(n);
        }
    }

    private void unpublish(NodeQueue queue) {
        queue.setLeaderVolatile(null);
        getAndAddParkedLeaders(-1);
    }

    /** A waiter that gives up before leadership: cancel the node, or depart if leadership won the race. */
    private void leave(QueueNode node, NodeQueue queue) {
        if (!node.cancelFollowing()) {
            departAsLeader(node, queue); // granted meanwhile: hand it on as a releasing leader would
        }
    }

    /** A leader that leaves without the lock passes leadership on, and wakes a leader if there is no successor. */
    private void departAsLeader(QueueNode node, NodeQueue queue) {
        if (passLeadership(node, queue) == null) {
            wakeParkedLeader(node.queue);
        }
    }

    /**
     * Grants leadership of {@code queue} from {@code head} (the departing leader) to the first live
     * successor, skipping cancelled nodes; with none, empties the queue.
     *
     * @return the new leader, or null when the queue became empty
     */
    private static QueueNode passLeadership(QueueNode head, NodeQueue queue) {
        QueueNode current = head;
        for (; ; ) {
            QueueNode next = queue.nextOrEmpty(current, SPINS);
            if (next == null) {
                return null;
            }
            if (next.grant()) {
                return next;
            }
            current = next; // cancelled: its thread has left; continue behind it
        }
    }

    /** Unparks one published leader, looking at node {@code from} first, then the others in order. */
    private void wakeParkedLeader(int from) {
        NodeQueue[] qs = queues;
        int count = qs.length;
        for (int i = 0; i < count; i++) {
            int n = from + i;
            if (n >= count) {
                n -= count;
                if (n >= count) {
                    n %= count;
                }
            }
            QueueNode leader = qs[n].leaderVolatile();
            if (leader != null) {
                LockSupport.unpark(leader.thread);
                return;
            }
        }
    }

    private static void park(Object blocker, long deadline) {
        if (deadline == 0L) {
            LockSupport.park(blocker);
        } else {
            long nanos = deadline - System.nanoTime();
            if (nanos > 0L) {
                LockSupport.parkNanos(blocker, nanos);
            }
        }
    }

    private void owned(Thread current, QueueNode node) {
        owner = current;
        ownerNode = node;
        holds = 1;
    }
}

/** Closes the padded block that QueueLockFields opens: NumaMcsLock has no fields of its own there. */
abstract class NumaMcsLockL1Pad extends QueueLockFields {
    byte p1000, p1001, p1002, p1003, p1004, p1005, p1006, p1007, p1008, p1009, p1010, p1011, p1012, p1013, p1014, p1015;
    byte p1016, p1017, p1018, p1019, p1020, p1021, p1022, p1023, p1024, p1025, p1026, p1027, p1028, p1029, p1030, p1031;
    byte p1032, p1033, p1034, p1035, p1036, p1037, p1038, p1039, p1040, p1041, p1042, p1043, p1044, p1045, p1046, p1047;
    byte p1048, p1049, p1050, p1051, p1052, p1053, p1054, p1055, p1056, p1057, p1058, p1059, p1060, p1061, p1062, p1063;
    byte p1064, p1065, p1066, p1067, p1068, p1069, p1070, p1071, p1072, p1073, p1074, p1075, p1076, p1077, p1078, p1079;
    byte p1080, p1081, p1082, p1083, p1084, p1085, p1086, p1087, p1088, p1089, p1090, p1091, p1092, p1093, p1094, p1095;
    byte p1096, p1097, p1098, p1099, p1100, p1101, p1102, p1103, p1104, p1105, p1106, p1107, p1108, p1109, p1110, p1111;
    byte p1112, p1113, p1114, p1115, p1116, p1117, p1118, p1119, p1120, p1121, p1122, p1123, p1124, p1125, p1126, p1127;

    NumaMcsLockL1Pad(LockProbe probe) {
        super(probe);
    }
}
