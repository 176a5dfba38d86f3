package dev.wordstats.numa.lock.queue;

import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockGuard;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.topology.NodeLocator;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * {@link NumaHandoffLock} on the lab bench: the same algorithm (this class only overrides the
 * lock's variation points), with any {@link HandoffMechanism} switched off, its knobs set (spins,
 * passes in a row, awake leaders, pass-after time, partner spins), counters, and views of its
 * leaders for tests. It lives in numa-locks-lab, which the mechanism tests, the jcstress tests and
 * the benchmarks use on the class path; the library's jar does not ship it, so in production the
 * lock's variation points have one implementation and fold to constants. It shares the lock's
 * package so that those variation points stay package-private (numa-locks-lab's README).
 */
public final class NumaHandoffLockLab extends NumaHandoffLock {

    private static final VarHandle SPIN_ROUNDS;
    private static final VarHandle PARTNER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            SPIN_ROUNDS = lookup.findVarHandle(NumaHandoffLockLab.class, "spinRounds", long.class);
            PARTNER = lookup.findVarHandle(NumaHandoffLockLab.class, "partner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Set<HandoffMechanism> mechanisms;
    private final boolean wakeAhead;
    private final boolean oneAwakeWaiter;
    private final boolean spinWhileOwnerRuns;
    private final boolean timeSlice;
    private final boolean slicePair; // only with TIME_SLICE
    private final boolean remoteTurn; // only on several nodes
    private final int inNodeBudget; // 0 when IN_NODE_PASS is off
    private final int spins;
    private final long passAfterNanos;
    private final int partnerSpins;
    private long spinRounds; // getAndAdd by leaders when they stop spinning; read opaque by spinRounds()
    private Thread partner; // opaque, by a slice holder while it spins for the word; read opaque by partner()

    /**
     * The production lock's knobs, with only the {@code mechanisms} given on.
     *
     * @param carriers as for {@link NumaHandoffLock#NumaHandoffLock(NodeLocator, Duration, int)}
     */
    public NumaHandoffLockLab(
            NodeLocator nodes, Duration reserveAfter, int carriers, Set<HandoffMechanism> mechanisms) {
        this(
                nodes,
                reserveAfter,
                mechanisms,
                DEFAULT_IN_NODE_BUDGET,
                Math.max(1, carriers - 1),
                SPINS,
                DEFAULT_PASS_AFTER_NANOS,
                PARTNER_SPINS);
    }

    /**
     * Every knob (jcstress uses it to force the parking and reservation paths with zero spins).
     *
     * @param inNodeBudget   passes in a row within a node (when IN_NODE_PASS is on), at least 1
     * @param maxAwake       leaders that may spin at once (when ONE_AWAKE_WAITER is on), at least 1
     * @param spins          onSpinWait rounds before a leader parks, at least 0
     * @param passAfterNanos how long a leader must have led before a release passes it the lock (0: at once)
     */
    public NumaHandoffLockLab(
            NodeLocator nodes,
            Duration reserveAfter,
            Set<HandoffMechanism> mechanisms,
            int inNodeBudget,
            int maxAwake,
            int spins,
            long passAfterNanos) {
        this(nodes, reserveAfter, mechanisms, inNodeBudget, maxAwake, spins, passAfterNanos, PARTNER_SPINS);
    }

    /**
     * Every knob and the partner's spin budget (SLICE_PAIR), for tests that need a partner to wait
     * for them.
     *
     * @param partnerSpins onSpinWait rounds a slice holder spins for a held lock, at least 0
     */
    public NumaHandoffLockLab(
            NodeLocator nodes,
            Duration reserveAfter,
            Set<HandoffMechanism> mechanisms,
            int inNodeBudget,
            int maxAwake,
            int spins,
            long passAfterNanos,
            int partnerSpins) {
        this(
                nodes,
                reserveAfter,
                mechanisms,
                inNodeBudget,
                maxAwake,
                spins,
                passAfterNanos,
                partnerSpins,
                LockProbe.NONE);
    }

    /**
     * Every knob, the partner's spin budget, and a probe the lock reports to (tests that show a probe
     * changes nothing).
     */
    public NumaHandoffLockLab(
            NodeLocator nodes,
            Duration reserveAfter,
            Set<HandoffMechanism> mechanisms,
            int inNodeBudget,
            int maxAwake,
            int spins,
            long passAfterNanos,
            int partnerSpins,
            LockProbe probe) {
        super(nodes, reserveAfter, checked(maxAwake, inNodeBudget, spins, passAfterNanos, partnerSpins) + 1, probe);
        Set<HandoffMechanism> on = EnumSet.noneOf(HandoffMechanism.class);
        on.addAll(Objects.requireNonNull(mechanisms, "mechanisms"));
        this.mechanisms = Set.copyOf(on);
        this.wakeAhead = on.contains(HandoffMechanism.WAKE_AHEAD);
        this.oneAwakeWaiter = on.contains(HandoffMechanism.ONE_AWAKE_WAITER);
        this.spinWhileOwnerRuns = on.contains(HandoffMechanism.SPIN_WHILE_OWNER_RUNS);
        this.timeSlice = on.contains(HandoffMechanism.TIME_SLICE);
        this.slicePair = timeSlice && on.contains(HandoffMechanism.SLICE_PAIR);
        this.remoteTurn = queueCount() > 1 && on.contains(HandoffMechanism.REMOTE_TURN);
        this.inNodeBudget = on.contains(HandoffMechanism.IN_NODE_PASS) ? inNodeBudget : 0;
        this.spins = spins;
        this.passAfterNanos = passAfterNanos;
        this.partnerSpins = partnerSpins;
    }

    private static int checked(int maxAwake, int inNodeBudget, int spins, long passAfterNanos, int partnerSpins) {
        if (inNodeBudget < 1 || maxAwake < 1 || spins < 0 || passAfterNanos < 0 || partnerSpins < 0) {
            throw new IllegalArgumentException(
                    "inNodeBudget and maxAwake must be at least 1, spins, passAfterNanos and partnerSpins at least 0: "
                            + inNodeBudget + ", " + maxAwake + ", " + spins + ", " + passAfterNanos + ", "
                            + partnerSpins);
        }
        return maxAwake;
    }

    /** This lock behind the critical-section API, as {@link LockType#NUMA_HANDOFF} gives the production lock. */
    public Guard guard() {
        return LockGuard.of(this);
    }

    /** The mechanisms switched on. */
    public Set<HandoffMechanism> mechanisms() {
        return mechanisms;
    }

    // ------------------------------------------------------------------ counters and views, for tests

    /** onSpinWait rounds leaders have spun so far (counted when they stop spinning). */
    public long spinRounds() {
        return (long) SPIN_ROUNDS.getOpaque(this);
    }

    /** The slice holder spinning for the lock now (SLICE_PAIR), or null; a hint. */
    public Thread partner() {
        return (Thread) PARTNER.getOpaque(this);
    }

    /** In-node passes in a row that led to the current owner; read by the owner in its critical section. */
    public int passesInARow() {
        return passes;
    }

    /** The thread of node {@code n}'s current leader, or null. */
    public Thread leaderOf(int n) {
        QueueNode leader = queues[n].leaderVolatile();
        if (leader == null) {
            return null;
        }
        int s = leader.statusVolatile();
        return s == HandoffNode.SPINNING || s == HandoffNode.LEADER_PARKED ? leader.thread : null;
    }

    /** Whether node {@code n}'s leader has said it is due (a release may pass it the lock). */
    public boolean leaderDue(int n) {
        HandoffNode leader = (HandoffNode) queues[n].leaderVolatile();
        return leader != null && leader.dueOpaque();
    }

    /** The node node {@code n}'s leader last said it runs on (REMOTE_TURN), or -1. */
    public int leaderRunsOn(int n) {
        HandoffNode leader = (HandoffNode) queues[n].leaderVolatile();
        return leader == null ? -1 : leader.runNodeOpaque();
    }

    /** Whether node {@code n}'s leader is awake (spinning). */
    public boolean leaderSpinning(int n) {
        QueueNode leader = queues[n].leaderVolatile();
        return leader != null && leader.statusVolatile() == HandoffNode.SPINNING;
    }

    // ------------------------------------------------------------------ the variation points

    @Override
    boolean mayBarge(Thread current) {
        return !timeSlice || super.mayBarge(current); // off: any arriving thread may take a free word
    }

    @Override
    boolean wakeAhead() {
        return wakeAhead;
    }

    @Override
    boolean oneAwakeWaiter() {
        return oneAwakeWaiter;
    }

    @Override
    boolean spinWhileOwnerRuns() {
        return spinWhileOwnerRuns;
    }

    @Override
    boolean slicePair() {
        return slicePair;
    }

    @Override
    boolean remoteTurn() {
        return remoteTurn;
    }

    @Override
    int inNodeBudget() {
        return inNodeBudget;
    }

    @Override
    int spins() {
        return spins;
    }

    @Override
    long passAfterNanos() {
        return passAfterNanos;
    }

    @Override
    int partnerSpins() {
        return partnerSpins;
    }

    @Override
    void countSpins(int rounds) {
        if (rounds > 0) {
            SPIN_ROUNDS.getAndAdd(this, (long) rounds);
        }
    }

    @Override
    void partnerSpinning(Thread current, boolean spinning) {
        if (spinning) {
            PARTNER.setOpaque(this, current);
        } else if (PARTNER.getOpaque(this) == current) {
            PARTNER.setOpaque(this, null);
        }
    }
}
