package dev.wordstats.numa.lock;

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
 * do not get it. It has no {@link Condition}s: {@link #newCondition()} throws
 * {@link UnsupportedOperationException}.
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
     * State
     *  - state: bit HELD (1) set while the lock is held, bit RESERVED (2) while a starving leader
     *    reserves it. The owner is whoever set HELD by CAS (from 0, or from RESERVED by the leader
     *    that reserved it); only the owner clears HELD (atomic add). owner/holds/ownerNode are
     *    written by the owner only, after the CAS and before the release, so the CAS/RMW pair
     *    orders them between successive owners.
     *  - reserver: the leader that set RESERVED, for the releaser to unpark.
     *  - queues[n]: node n's MCS queue (tail), the slot where its leader publishes itself before
     *    parking on the flag (parkedLeader), and the count of handoffs in a row within the node.
     *  - parkedLeaders: how many leaders are published, so that a release with none (the common
     *    case at low contention) reads one word on the line it just wrote instead of every queue.
     *  - QNode.status: WAITING -> PARKED (by its thread, before parking), WAITING|PARKED -> LEADER
     *    (by the predecessor, granting), WAITING|PARKED -> CANCELLED (by its thread, giving up).
     *    LEADER and CANCELLED are final; the CAS decides a race between granting and cancelling.
     *
     * lock()
     *  1. Reentry: owner == current thread -> holds++.
     *  2. Fast path: CAS state 0 -> 1 (barging, as a non-fair ReentrantLock does).
     *  3. Slow path: append a QNode to the queue of the caller's node (xchg tail, then link
     *     pred.next). With no predecessor the caller is that node's leader at once; otherwise it
     *     waits for its predecessor to grant it LEADER: spin up to SPINS times, then CAS its status
     *     WAITING -> PARKED, re-check, and park.
     *  4. The leader competes for the flag: read state, CAS 0 -> 1 when it reads 0, up to SPINS
     *     times; then it publishes itself in parkedLeader, increments parkedLeaders, re-checks the
     *     flag once more, and parks.
     *     Having won, it clears parkedLeader and stays at the head of its queue until it unlocks.
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
     *  2. If the owner came through a queue, it grants LEADER to its first live successor, skipping
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
     *    parkedLeader, increments parkedLeaders and then reads state; a releaser clears HELD
     *    (getAndAdd(-HELD)) and then reads parkedLeaders and, when positive, the parkedLeader
     *    slots. At least one of them sees the other's write, so either the leader does not park or
     *    the releaser unparks it. A releaser that grants no successor always wakes a parked leader
     *    if one is published, so a free flag with parked leaders and no running competitor cannot
     *    persist. // checked by NumaMcsLockContractTest.releaseChainWakesEveryWaiter,
     *    // NumaMcsLockMutualExclusionTests.CrossNode
     *  - No lost wakeup, queue side: a waiter parks only after its CAS WAITING -> PARKED; a granter
     *    that overwrites PARKED with LEADER unparks it. A waiter whose CAS fails re-reads LEADER.
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
     *  - parkedLeader may name a leader that has just won or given up; unparking it then only
     *    leaves a spare permit, which every park loop tolerates (it re-checks and parks again).
     *  - A woken leader may lose the flag to a barging thread and park again; the barger's
     *    unlock wakes a parked leader in turn.
     *  - The node from NodeLocator is a hint read once per slow-path acquisition; a virtual thread
     *    that migrates keeps the queue it joined. A wrong node costs locality, not correctness.
     *
     * Memory modes: see package-info (lv/sv/cas/xchg/add accessors; VarHandles private). Padding: state
     * and the owner fields share one 128-byte-padded block (NumaMcsLockL0Pad/L1Pad), each node's
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

    private static final int HELD = 1;
    private static final int RESERVED = 2;

    private static final VarHandle STATE;
    private static final VarHandle PARKED_LEADERS;
    private static final VarHandle RESERVER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(NumaMcsLockFields.class, "state", int.class);
            PARKED_LEADERS = lookup.findVarHandle(NumaMcsLockFields.class, "parkedLeaders", int.class);
            RESERVER = lookup.findVarHandle(NumaMcsLockFields.class, "reserver", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

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
        if (owner == current) {
            reenter();
        } else if (!casState(0, HELD)) {
            acquireQueued(current, false, 0L);
        } else {
            owned(current, null);
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        Thread current = Thread.currentThread();
        if (owner == current) {
            reenter();
        } else if (!casState(0, HELD)) {
            if (acquireQueued(current, true, 0L) != ACQUIRED) {
                throw new InterruptedException();
            }
        } else {
            owned(current, null);
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
        if (lvState() == 0 && casState(0, HELD)) {
            owned(current, null);
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
        if (owner != Thread.currentThread()) {
            throw new IllegalMonitorStateException("unlock by a thread that does not hold the lock: "
                    + Thread.currentThread() + " (owner: " + owner + ")");
        }
        if (--holds > 0) {
            return;
        }
        QNode node = ownerNode;
        ownerNode = null;
        owner = null;
        if (node == null) {
            if (!release() && lvParkedLeaders() > 0) {
                wakeParkedLeader(queues.length == 1 ? 0 : nodes.currentNode());
            }
            return;
        }
        // Still this queue's leader: count the handoff before anyone else may become leader.
        NodeQueue queue = queues[node.node];
        int streak = queue.localStreak + 1;
        boolean budgetSpent = streak >= LOCAL_HANDOFF_BUDGET;
        queue.localStreak = budgetSpent ? 0 : streak;
        boolean handedOff = release();
        QNode successor = passLeadership(node, queue);
        if (!handedOff && (successor == null || budgetSpent) && lvParkedLeaders() > 0) {
            wakeParkedLeader(successor == null ? node.node : node.node + 1);
        }
    }

    /** Clears HELD; if a starving leader reserved the lock, unparks it and returns true. */
    private boolean release() {
        if ((releaseState() & RESERVED) == 0) {
            return false;
        }
        Thread waiter = lvReserver();
        if (waiter != null) { // null: the waiter has not stored itself yet and will see HELD clear
            LockSupport.unpark(waiter);
        }
        return true;
    }

    /**
     * Not supported: this lock has no conditions.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException(
                "NumaMcsLock has no conditions; use LockType.FAIR_REENTRANT or UNFAIR_REENTRANT for a lock with conditions");
    }

    /** Whether the calling thread holds this lock. */
    public boolean isHeldByCurrentThread() {
        return owner == Thread.currentThread();
    }

    /** The calling thread's hold count: 0 when it does not hold the lock. */
    public int getHoldCount() {
        return owner == Thread.currentThread() ? holds : 0;
    }

    /** Whether any thread holds this lock; for monitoring, not for synchronization. */
    public boolean isLocked() {
        return (lvState() & HELD) != 0;
    }

    /**
     * Whether a waiter that waited past {@link #reserveAfter()} has reserved this lock: until it
     * takes it, no other thread can. For monitoring, not for synchronization.
     */
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

    @Override
    public String toString() {
        Thread o = owner;
        Thread reserving = lvReserver();
        return super.toString() + (o == null ? "[Unlocked]" : "[Locked by thread " + o.getName() + "]")
                + ((lvState() & RESERVED) == 0
                        ? ""
                        : "[Reserved by thread " + (reserving == null ? "?" : reserving.getName()) + "]")
                + "[queues=" + queues.length + ", parkedLeaders=" + lvParkedLeaders() + "]";
    }

    // ---------------------------------------------------------------------------------------------
    // Slow path

    private static final int ACQUIRED = 0;
    private static final int INTERRUPTED = 1;
    private static final int TIMED_OUT = 2;

    /**
     * Queues the caller on its node, waits for leadership, then competes for the flag.
     *
     * @param interruptible whether an interrupt makes the caller give up (else it is kept for later)
     * @param deadline 0 for none, else the System.nanoTime() to give up at
     * @return ACQUIRED, or INTERRUPTED / TIMED_OUT after the caller left the queue cleanly
     */
    private int acquireQueued(Thread current, boolean interruptible, long deadline) {
        int n = nodes.currentNode();
        if (n < 0 || n >= queues.length) {
            n = 0;
        }
        NodeQueue queue = queues[n];
        QNode node = new QNode(current, n);
        QNode pred = queue.xchgTail(node);
        boolean interrupted = false;
        if (pred == null) {
            queue.localStreak = 0; // first leader of a fresh queue: the previous leader emptied it (tail CAS) first
        } else {
            pred.svNext(node);
            int outcome = awaitLeadership(node, interruptible, deadline);
            if (outcome == GAVE_UP) {
                leave(node, queue);
                return giveUpReason(deadline);
            }
            interrupted = outcome == LEADER_INTERRUPTED;
        }
        int outcome = competeForFlag(current, n, interruptible, deadline);
        if (outcome == GAVE_UP) {
            departAsLeader(node, queue);
            return giveUpReason(deadline);
        }
        owned(current, node);
        if (interrupted || outcome == LEADER_INTERRUPTED) {
            current.interrupt(); // lock() is not interruptible: restore the status we cleared
        }
        return ACQUIRED;
    }

    private static final int LEADER = 0;
    private static final int LEADER_INTERRUPTED = 1;
    private static final int GAVE_UP = 2;

    /** Waits until the predecessor grants {@code node} leadership, or the caller gives up. */
    private static int awaitLeadership(QNode node, boolean interruptible, long deadline) {
        boolean interrupted = false;
        int spins = SPINS;
        for (; ; ) {
            int s = node.lvStatus();
            if (s == QNode.LEADER) {
                return interrupted ? LEADER_INTERRUPTED : LEADER;
            }
            if (deadline != 0L && deadline - System.nanoTime() <= 0L) {
                return GAVE_UP;
            }
            if (spins > 0) {
                spins--;
                Thread.onSpinWait();
            } else if (s == QNode.WAITING) {
                node.casStatus(QNode.WAITING, QNode.PARKED); // publish, then re-check before parking
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
     * As {@code queue}'s leader, takes the flag, or gives up; reserves it (RESERVED) when it finds
     * the flag taken {@code reserveAfterNanos} or more after it first parked for it.
     */
    private int competeForFlag(Thread current, int n, boolean interruptible, long deadline) {
        NodeQueue queue = queues[n];
        boolean interrupted = false;
        boolean published = false;
        boolean reserved = false;
        long since = 0L; // when this leader published itself to park
        int spins = SPINS;
        for (; ; ) {
            int s = lvState();
            if (reserved && s == RESERVED) {
                // Only we may leave RESERVED, so the CAS below cannot fail. Clear the slot first:
                // after the CAS another leader may reserve and store itself there.
                svReserver(null);
            }
            if ((s == 0 || (reserved && s == RESERVED)) && casState(s, HELD)) {
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
                queue.svParkedLeader(current);
                addParkedLeaders(1);
                published = true;
                since = System.nanoTime();
            } else if (!reserved
                    && (s & RESERVED) == 0
                    && System.nanoTime() - since >= reserveAfterNanos
                    && casState(s, s | RESERVED)) {
                // Reserved: store ourselves, then re-check the flag before parking (the releaser's
                // side: clear HELD, read reserver).
                svReserver(current);
                reserved = true;
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
            cancelReservation(n);
        }
        return GAVE_UP;
    }

    /**
     * A reserving leader of queue {@code n} that gives up: drop the reservation; if the lock is free, wake a
     * leader.
     */
    private void cancelReservation(int n) {
        svReserver(null);
        int s;
        do {
            s = lvState();
        } while (!casState(s, s & ~RESERVED));
        // A release while we held the reservation woke only us: pass that wake-up on.
        if ((s & HELD) == 0 && lvParkedLeaders() > 0) {
            wakeParkedLeader(n);
        }
    }

    private void unpublish(NodeQueue queue) {
        queue.svParkedLeader(null);
        addParkedLeaders(-1);
    }

    /** A waiter that gives up before leadership: cancel the node, or depart if leadership won the race. */
    private void leave(QNode node, NodeQueue queue) {
        if (!node.cancel()) {
            departAsLeader(node, queue); // granted meanwhile: hand it on as a releasing leader would
        }
    }

    /** A leader that leaves without the lock passes leadership on, and wakes a leader if there is no successor. */
    private void departAsLeader(QNode node, NodeQueue queue) {
        if (passLeadership(node, queue) == null) {
            wakeParkedLeader(node.node);
        }
    }

    /**
     * Grants leadership of {@code queue} from {@code head} (the departing leader) to the first live
     * successor, skipping cancelled nodes; with none, empties the queue.
     *
     * @return the new leader, or null when the queue became empty
     */
    private static QNode passLeadership(QNode head, NodeQueue queue) {
        QNode current = head;
        for (; ; ) {
            QNode next = current.lvNext();
            if (next == null) {
                if (queue.casTail(current, null)) {
                    return null;
                }
                next = awaitNext(current); // a successor swapped the tail and is linking in
            }
            if (next.grant()) {
                return next;
            }
            current = next; // cancelled: its thread has left; continue behind it
        }
    }

    /** Waits for the link a successor is about to store: it cannot block in between, so this is short. */
    private static QNode awaitNext(QNode node) {
        QNode next;
        int spins = SPINS;
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
            Thread leader = qs[n].lvParkedLeader();
            if (leader != null) {
                LockSupport.unpark(leader);
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

    /** Why a waiter gave up: its deadline passed, or else it was interrupted. */
    private static int giveUpReason(long deadline) {
        return deadline != 0L && deadline - System.nanoTime() <= 0L ? TIMED_OUT : INTERRUPTED;
    }

    private void owned(Thread current, QNode node) {
        owner = current;
        ownerNode = node;
        holds = 1;
    }

    private void reenter() {
        if (holds == Integer.MAX_VALUE) {
            throw new Error("Maximum lock count exceeded");
        }
        holds++;
    }

    private int lvParkedLeaders() {
        return (int) PARKED_LEADERS.getVolatile(this);
    }

    private void addParkedLeaders(int delta) {
        PARKED_LEADERS.getAndAdd(this, delta);
    }

    private int lvState() {
        return (int) STATE.getVolatile(this);
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

    private boolean casState(int expect, int update) {
        return STATE.compareAndSet(this, expect, update);
    }
}

/** Queue node of one slow-path acquisition. */
final class QNode {
    static final int WAITING = 0;
    static final int PARKED = 1;
    static final int LEADER = 2;
    static final int CANCELLED = 3;

    private static final VarHandle NEXT;
    private static final VarHandle STATUS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            NEXT = lookup.findVarHandle(QNode.class, "next", QNode.class);
            STATUS = lookup.findVarHandle(QNode.class, "status", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Thread thread; // the waiting thread, set at construction
    final int node; // index of the queue this node joined, set at construction
    private QNode
            next; // set once (volatile) by the successor after it swapped the tail; read by this node's thread when it
    // departs
    private int
            status; // CAS: WAITING->PARKED and ->CANCELLED by the waiter, ->LEADER by the predecessor; read volatile by
    // both

    QNode(Thread thread, int node) {
        this.thread = thread;
        this.node = node;
    }

    QNode lvNext() {
        return (QNode) NEXT.getVolatile(this);
    }

    void svNext(QNode successor) {
        NEXT.setVolatile(this, successor);
    }

    int lvStatus() {
        return (int) STATUS.getVolatile(this);
    }

    boolean casStatus(int expect, int update) {
        return STATUS.compareAndSet(this, expect, update);
    }

    /** By the predecessor: makes this node the leader, unparking its thread if it parked; false if cancelled. */
    boolean grant() {
        for (; ; ) {
            int s = lvStatus();
            if (s == CANCELLED) {
                return false;
            }
            if (casStatus(s, LEADER)) {
                if (s == PARKED) {
                    LockSupport.unpark(thread);
                }
                return true;
            }
        }
    }

    /** By the waiter: gives up its place; false if leadership was granted first. */
    boolean cancel() {
        for (; ; ) {
            int s = lvStatus();
            if (s == LEADER) {
                return false;
            }
            if (casStatus(s, CANCELLED)) {
                return true;
            }
        }
    }
}

/** One node's MCS queue and its parked-leader slot, padded to keep it off its neighbours' lines. */
final class NodeQueue extends NodeQueueL1Pad {
    private static final VarHandle TAIL;
    private static final VarHandle PARKED_LEADER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(NodeQueueFields.class, "tail", QNode.class);
            PARKED_LEADER = lookup.findVarHandle(NodeQueueFields.class, "parkedLeader", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    QNode xchgTail(QNode node) {
        return (QNode) TAIL.getAndSet(this, node);
    }

    boolean casTail(QNode expect, QNode update) {
        return TAIL.compareAndSet(this, expect, update);
    }

    Thread lvParkedLeader() {
        return (Thread) PARKED_LEADER.getVolatile(this);
    }

    void svParkedLeader(Thread leader) {
        PARKED_LEADER.setVolatile(this, leader);
    }
}

abstract class NodeQueueL0Pad {
    byte q0000, q0001, q0002, q0003, q0004, q0005, q0006, q0007, q0008, q0009, q0010, q0011, q0012, q0013, q0014, q0015;
    byte q0016, q0017, q0018, q0019, q0020, q0021, q0022, q0023, q0024, q0025, q0026, q0027, q0028, q0029, q0030, q0031;
    byte q0032, q0033, q0034, q0035, q0036, q0037, q0038, q0039, q0040, q0041, q0042, q0043, q0044, q0045, q0046, q0047;
    byte q0048, q0049, q0050, q0051, q0052, q0053, q0054, q0055, q0056, q0057, q0058, q0059, q0060, q0061, q0062, q0063;
    byte q0064, q0065, q0066, q0067, q0068, q0069, q0070, q0071, q0072, q0073, q0074, q0075, q0076, q0077, q0078, q0079;
    byte q0080, q0081, q0082, q0083, q0084, q0085, q0086, q0087, q0088, q0089, q0090, q0091, q0092, q0093, q0094, q0095;
    byte q0096, q0097, q0098, q0099, q0100, q0101, q0102, q0103, q0104, q0105, q0106, q0107, q0108, q0109, q0110, q0111;
    byte q0112, q0113, q0114, q0115, q0116, q0117, q0118, q0119, q0120, q0121, q0122, q0123, q0124, q0125, q0126, q0127;
}

abstract class NodeQueueFields extends NodeQueueL0Pad {
    QNode tail; // xchg by enqueuing threads of this node; CAS to null by a departing leader with no successor
    Thread parkedLeader; // set/cleared (volatile) by this node's leader around parking; read (volatile) by releasers
    // of any node
    int localStreak; // plain, this queue's current leader only (leadership passes by a volatile CAS): handoffs in a row
}

abstract class NodeQueueL1Pad extends NodeQueueFields {
    byte q1000, q1001, q1002, q1003, q1004, q1005, q1006, q1007, q1008, q1009, q1010, q1011, q1012, q1013, q1014, q1015;
    byte q1016, q1017, q1018, q1019, q1020, q1021, q1022, q1023, q1024, q1025, q1026, q1027, q1028, q1029, q1030, q1031;
    byte q1032, q1033, q1034, q1035, q1036, q1037, q1038, q1039, q1040, q1041, q1042, q1043, q1044, q1045, q1046, q1047;
    byte q1048, q1049, q1050, q1051, q1052, q1053, q1054, q1055, q1056, q1057, q1058, q1059, q1060, q1061, q1062, q1063;
    byte q1064, q1065, q1066, q1067, q1068, q1069, q1070, q1071, q1072, q1073, q1074, q1075, q1076, q1077, q1078, q1079;
    byte q1080, q1081, q1082, q1083, q1084, q1085, q1086, q1087, q1088, q1089, q1090, q1091, q1092, q1093, q1094, q1095;
    byte q1096, q1097, q1098, q1099, q1100, q1101, q1102, q1103, q1104, q1105, q1106, q1107, q1108, q1109, q1110, q1111;
    byte q1112, q1113, q1114, q1115, q1116, q1117, q1118, q1119, q1120, q1121, q1122, q1123, q1124, q1125, q1126, q1127;
}

abstract class NumaMcsLockL0Pad {
    byte p0000, p0001, p0002, p0003, p0004, p0005, p0006, p0007, p0008, p0009, p0010, p0011, p0012, p0013, p0014, p0015;
    byte p0016, p0017, p0018, p0019, p0020, p0021, p0022, p0023, p0024, p0025, p0026, p0027, p0028, p0029, p0030, p0031;
    byte p0032, p0033, p0034, p0035, p0036, p0037, p0038, p0039, p0040, p0041, p0042, p0043, p0044, p0045, p0046, p0047;
    byte p0048, p0049, p0050, p0051, p0052, p0053, p0054, p0055, p0056, p0057, p0058, p0059, p0060, p0061, p0062, p0063;
    byte p0064, p0065, p0066, p0067, p0068, p0069, p0070, p0071, p0072, p0073, p0074, p0075, p0076, p0077, p0078, p0079;
    byte p0080, p0081, p0082, p0083, p0084, p0085, p0086, p0087, p0088, p0089, p0090, p0091, p0092, p0093, p0094, p0095;
    byte p0096, p0097, p0098, p0099, p0100, p0101, p0102, p0103, p0104, p0105, p0106, p0107, p0108, p0109, p0110, p0111;
    byte p0112, p0113, p0114, p0115, p0116, p0117, p0118, p0119, p0120, p0121, p0122, p0123, p0124, p0125, p0126, p0127;
}

abstract class NumaMcsLockFields extends NumaMcsLockL0Pad {
    int state; // HELD|RESERVED bits: CAS by acquirers and the reserving leader, getAndAdd(-HELD) by the owner
    Thread owner; // plain: set by the owner after the CAS, cleared before its release store
    QNode ownerNode; // plain, owner only: the owner's queue node, null after a fast-path acquisition
    int holds; // plain, owner only: reentrant hold count
    int parkedLeaders; // getAndAdd by leaders around parking (slow path only); read volatile by releasers
    Thread reserver; // volatile, by the leader that set RESERVED (itself, then null); read volatile by releasers
}

abstract class NumaMcsLockL1Pad extends NumaMcsLockFields {
    byte p1000, p1001, p1002, p1003, p1004, p1005, p1006, p1007, p1008, p1009, p1010, p1011, p1012, p1013, p1014, p1015;
    byte p1016, p1017, p1018, p1019, p1020, p1021, p1022, p1023, p1024, p1025, p1026, p1027, p1028, p1029, p1030, p1031;
    byte p1032, p1033, p1034, p1035, p1036, p1037, p1038, p1039, p1040, p1041, p1042, p1043, p1044, p1045, p1046, p1047;
    byte p1048, p1049, p1050, p1051, p1052, p1053, p1054, p1055, p1056, p1057, p1058, p1059, p1060, p1061, p1062, p1063;
    byte p1064, p1065, p1066, p1067, p1068, p1069, p1070, p1071, p1072, p1073, p1074, p1075, p1076, p1077, p1078, p1079;
    byte p1080, p1081, p1082, p1083, p1084, p1085, p1086, p1087, p1088, p1089, p1090, p1091, p1092, p1093, p1094, p1095;
    byte p1096, p1097, p1098, p1099, p1100, p1101, p1102, p1103, p1104, p1105, p1106, p1107, p1108, p1109, p1110, p1111;
    byte p1112, p1113, p1114, p1115, p1116, p1117, p1118, p1119, p1120, p1121, p1122, p1123, p1124, p1125, p1126, p1127;
}
