package dev.wordstats.concurrency;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.lock.queue.HandoffMechanism;
import dev.wordstats.numa.lock.queue.NumaHandoffLock;
import dev.wordstats.numa.lock.queue.NumaHandoffLockLab;
import dev.wordstats.numa.lock.queue.NumaMcsLock;
import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The handoff paths of {@link NumaHandoffLock} on one and on two nodes: a wake-ahead grant racing
 * the owner's release, a passer granting leadership onward while the new owner runs, releases and
 * queues again, an in-node pass (the word stays held from owner to owner) racing a leader
 * that parks, a reservation racing a release and a reservation racing a timeout. Each actor takes
 * the lock more than once, so a releasing owner re-enqueues behind a leader it just woke. "Eager"
 * locks spin zero rounds, allow one awake leader, pass at once but once per node, and reserve at once: every
 * wait parks and reserves, so those paths run on every round. The result pair is (1 if the lock was
 * left held or reserved after both actors finished, else 0; the counter). Run with
 * {@code java -jar concurrency-tests/target/jcstress.jar -t NumaHandoffLock}.
 */
public final class NumaHandoffLockTests {

    private NumaHandoffLockTests() {}

    /** Zero spins, one awake leader, budget 1, passes at once, reservation at once. */
    static NumaHandoffLock eager(NodeLocator nodes) {
        return new NumaHandoffLockLab(nodes, Duration.ZERO, HandoffMechanism.all(), 1, 1, 0, 0L);
    }

    /** The production lock, as LockType.NUMA_HANDOFF builds it. */
    static NumaHandoffLock production(NodeLocator nodes) {
        return new NumaHandoffLock(nodes, NumaMcsLock.DEFAULT_RESERVE_AFTER, CarrierPinning.schedulerParallelism());
    }

    static void finish(NumaHandoffLock lock, Guarded guarded, II_Result r) {
        r.r1 = lock.isLocked() || lock.isReserved() ? 1 : 0;
        r.r2 = guarded.counter();
    }

    /** Default lock, one node: in-node passes and wake-ahead grants race the releases. */
    @JCStressTest
    @Description("two actors on one node, two acquisitions each (default settings)")
    @Outcome(id = "0, 4", expect = ACCEPTABLE, desc = "all four increments, the lock left free")
    @Outcome(
            id = "0, [0-3]",
            expect = FORBIDDEN,
            desc = "lost update: two owners at once (a pass or grant broke exclusion)")
    @Outcome(id = "1, .*", expect = FORBIDDEN, desc = "the lock was left held or reserved")
    @State
    public static class WakeAheadRacesReleaseSameNode {
        private final NumaHandoffLock lock = production(NodeLocator.singleNode());
        private final Guarded guarded = new Guarded(lock);

        @Actor
        public void a() {
            guarded.increment(0, 2);
        }

        @Actor
        public void b() {
            guarded.increment(0, 2);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            finish(lock, guarded, r);
        }
    }

    /** Default lock, two nodes: each actor leads its own queue and the word moves between nodes. */
    @JCStressTest
    @Description("two actors on two nodes, two acquisitions each (default settings)")
    @Outcome(id = "0, 4", expect = ACCEPTABLE, desc = "all four increments, the lock left free")
    @Outcome(id = "0, [0-3]", expect = FORBIDDEN, desc = "lost update: two owners at once")
    @Outcome(id = "1, .*", expect = FORBIDDEN, desc = "the lock was left held or reserved")
    @State
    public static class WakeAheadRacesReleaseCrossNode {
        private final NumaHandoffLock lock = production(ActorNodes.TWO_NODES);
        private final Guarded guarded = new Guarded(lock);

        @Actor
        public void a() {
            guarded.increment(0, 2);
        }

        @Actor
        public void b() {
            guarded.increment(1, 2);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            finish(lock, guarded, r);
        }
    }

    /**
     * Default lock, one node, three actors: while one owns and another leads the queue, the third,
     * one of the last two owners (SLICE_PAIR), spins for the held word; at each release its CAS
     * races the leader's CAS, the pass to a running leader and the wake-up of a parked one.
     */
    @JCStressTest
    @Description("three actors on one node, two acquisitions each (default settings: slice pair on)")
    @Outcome(id = "0, 6", expect = ACCEPTABLE, desc = "all six increments, the lock left free")
    @Outcome(id = "0, [0-5]", expect = FORBIDDEN, desc = "lost update: a partner and another owner at once")
    @Outcome(id = "1, .*", expect = FORBIDDEN, desc = "the lock was left held or reserved")
    @State
    public static class SlicePartnerRacesLeader {
        private final NumaHandoffLock lock = production(NodeLocator.singleNode());
        private final Guarded guarded = new Guarded(lock);

        @Actor
        public void a() {
            guarded.increment(0, 2);
        }

        @Actor
        public void b() {
            guarded.increment(0, 2);
        }

        @Actor
        public void c() {
            guarded.increment(0, 2);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            finish(lock, guarded, r);
        }
    }

    /** Leaders spin, a pass goes to a leader at once: every release that finds one passes. */
    static NumaHandoffLock passing(NodeLocator nodes) {
        return new NumaHandoffLockLab(
                nodes,
                NumaMcsLock.DEFAULT_RESERVE_AFTER,
                HandoffMechanism.all(),
                NumaHandoffLock.DEFAULT_IN_NODE_BUDGET,
                2,
                NumaHandoffLock.SPINS,
                0L);
    }

    /**
     * Two actors on one node, passing at once: after a pass the passer grants leadership onward
     * from the new owner's node while that owner runs, releases and queues again behind its old
     * node (the passer then waits for the link and grants the owner's new node), and the time
     * slice lets only the last owner back in while a leader waits.
     */
    @JCStressTest
    @Description("two actors on one node, three acquisitions each, passes at once")
    @Outcome(id = "0, 6", expect = ACCEPTABLE, desc = "all six increments, the lock left free")
    @Outcome(id = "0, [0-5]", expect = FORBIDDEN, desc = "lost update: two owners at once")
    @Outcome(id = "1, .*", expect = FORBIDDEN, desc = "the lock was left held or reserved")
    @State
    public static class PasserGrantRacesNewOwner {
        private final NumaHandoffLock lock = passing(NodeLocator.singleNode());
        private final Guarded guarded = new Guarded(lock);

        @Actor
        public void a() {
            guarded.increment(0, 3);
        }

        @Actor
        public void b() {
            guarded.increment(0, 3);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            finish(lock, guarded, r);
        }
    }

    /**
     * What one owner writes the next sees whole when the lock is passed within a node (the word
     * never goes free): the pass CAS is the happens-before edge.
     */
    @JCStressTest
    @Description("writer then reader on one node: the reader sees both writes or neither")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the reader held the lock first")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the reader held the lock after the writer and saw both writes")
    @Outcome(
            id = {"0, 1", "1, 0"},
            expect = FORBIDDEN,
            desc = "torn view: the reader ran inside the writer's critical section, or the pass lost a write")
    @State
    public static class InNodePassVisibility {
        private final Guarded guarded = new Guarded(new NumaHandoffLockLab(
                NodeLocator.singleNode(),
                NumaMcsLock.DEFAULT_RESERVE_AFTER,
                HandoffMechanism.all(),
                NumaHandoffLock.DEFAULT_IN_NODE_BUDGET,
                1,
                NumaHandoffLock.SPINS,
                0L)); // pass as soon as the reader leads

        @Actor
        public void writer() {
            guarded.writePair(0);
        }

        @Actor
        public void reader(II_Result r) {
            guarded.readPair(0, r);
        }
    }

    /** The same across two nodes, where the word is released and taken by CAS. */
    @JCStressTest
    @Description("writer then reader on two nodes: the reader sees both writes or neither")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the reader held the lock first")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the reader held the lock after the writer and saw both writes")
    @Outcome(
            id = {"0, 1", "1, 0"},
            expect = FORBIDDEN,
            desc = "torn view: a handoff lost a write")
    @State
    public static class CrossNodeVisibility {
        private final Guarded guarded = new Guarded(production(ActorNodes.TWO_NODES));

        @Actor
        public void writer() {
            guarded.writePair(0);
        }

        @Actor
        public void reader(II_Result r) {
            guarded.readPair(1, r);
        }
    }

    /** Eager lock, one node: every waiter parks at once and reserves; a pass races the park. */
    @JCStressTest
    @Description("eager lock, two actors on one node, two acquisitions each: reservation and pass race the release")
    @Outcome(id = "0, 4", expect = ACCEPTABLE, desc = "all four increments, the lock left free and unreserved")
    @Outcome(id = "0, [0-3]", expect = FORBIDDEN, desc = "lost update: two owners at once")
    @Outcome(id = "1, .*", expect = FORBIDDEN, desc = "the lock was left held or reserved")
    @State
    public static class ReservationRacesReleaseSameNode {
        private final NumaHandoffLock lock = eager(NodeLocator.singleNode());
        private final Guarded guarded = new Guarded(lock);

        @Actor
        public void a() {
            guarded.increment(0, 2);
        }

        @Actor
        public void b() {
            guarded.increment(0, 2);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            finish(lock, guarded, r);
        }
    }

    /** Eager lock, two nodes: the reserving leader of one node races the release of the other. */
    @JCStressTest
    @Description("eager lock, two actors on two nodes, two acquisitions each: reservation races the release")
    @Outcome(id = "0, 4", expect = ACCEPTABLE, desc = "all four increments, the lock left free and unreserved")
    @Outcome(id = "0, [0-3]", expect = FORBIDDEN, desc = "lost update: two owners at once")
    @Outcome(id = "1, .*", expect = FORBIDDEN, desc = "the lock was left held or reserved")
    @State
    public static class ReservationRacesReleaseCrossNode {
        private final NumaHandoffLock lock = eager(ActorNodes.TWO_NODES);
        private final Guarded guarded = new Guarded(lock);

        @Actor
        public void a() {
            guarded.increment(0, 2);
        }

        @Actor
        public void b() {
            guarded.increment(1, 2);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            finish(lock, guarded, r);
        }
    }

    /**
     * Eager lock: a timed tryLock parks, reserves at once and times out while the owner releases.
     * Giving up must drop the reservation and leave the lock usable; it may also win the race.
     */
    @JCStressTest
    @Description("eager lock, timed tryLock (20 us) vs lock on one node: reservation races the timeout")
    @Outcome(id = "0, 3", expect = ACCEPTABLE, desc = "the timed tryLock got the lock")
    @Outcome(id = "0, 2", expect = ACCEPTABLE, desc = "the timed tryLock timed out")
    @Outcome(id = "0, [01]", expect = FORBIDDEN, desc = "lost update: two owners at once")
    @Outcome(id = "1, .*", expect = FORBIDDEN, desc = "the lock was left held or reserved")
    @State
    public static class ReservationRacesTimeoutSameNode {
        private final NumaHandoffLock lock = eager(NodeLocator.singleNode());
        private final Guarded guarded = new Guarded(lock);

        @Actor
        public void locker() {
            guarded.increment(0, 2);
        }

        @Actor
        public void timed() {
            guarded.tryIncrement(0, 20, TimeUnit.MICROSECONDS);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            finish(lock, guarded, r);
        }
    }

    /** The same with the actors on two nodes: the reserver leads the other node's queue. */
    @JCStressTest
    @Description("eager lock, timed tryLock (20 us) vs lock on two nodes: reservation races the timeout")
    @Outcome(id = "0, 3", expect = ACCEPTABLE, desc = "the timed tryLock got the lock")
    @Outcome(id = "0, 2", expect = ACCEPTABLE, desc = "the timed tryLock timed out")
    @Outcome(id = "0, [01]", expect = FORBIDDEN, desc = "lost update: two owners at once")
    @Outcome(id = "1, .*", expect = FORBIDDEN, desc = "the lock was left held or reserved")
    @State
    public static class ReservationRacesTimeoutCrossNode {
        private final NumaHandoffLock lock = eager(ActorNodes.TWO_NODES);
        private final Guarded guarded = new Guarded(lock);

        @Actor
        public void locker() {
            guarded.increment(0, 2);
        }

        @Actor
        public void timed() {
            guarded.tryIncrement(1, 20, TimeUnit.MICROSECONDS);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            finish(lock, guarded, r);
        }
    }
}
