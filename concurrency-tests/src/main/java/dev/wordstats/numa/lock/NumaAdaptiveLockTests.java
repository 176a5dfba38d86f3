package dev.wordstats.numa.lock;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The mode switches of {@link NumaAdaptiveLock} racing lean arrivals, parks, releases and the queue
 * lock. The locks here use {@code Thresholds.EAGER}: every contended acquisition turns the lock
 * queued and every queued release turns it lean again, so switches happen
 * inside nearly every round (the defaults switch after a window of 64), and a contended arrival parks
 * at once instead of spinning, so the park, the wake-up at a switch and the move to the queue lock run
 * with two actors too. The tests sit in the lock's
 * package for that package-private constructor. The result triple is (1 if the lock was left held
 * after every actor finished, else 0; the counter; 1 if the lock switched modes in the round, else 0).
 * Run with {@code java -jar concurrency-tests/target/jcstress.jar -t NumaAdaptiveLock}.
 */
public final class NumaAdaptiveLockTests {

    private NumaAdaptiveLockTests() {}

    /** Two simulated nodes; each actor says which one it runs on. */
    static final NodeLocator TWO_NODES = new NodeLocator() {
        @Override
        public int nodeCount() {
            return 2;
        }

        @Override
        public int currentNode() {
            return NODE.get()[0];
        }
    };

    private static final ThreadLocal<int[]> NODE = ThreadLocal.withInitial(() -> new int[1]);

    /** The calling actor runs on {@code node} of {@link #TWO_NODES} from here on. */
    static void onNode(int node) {
        NODE.get()[0] = node;
    }

    /** A lock that switches modes at every chance, and a plain counter only the lock orders. */
    abstract static class Guarded {
        final NumaAdaptiveLock lock;
        int counter; // plain on purpose: a lost update means two owners at once

        Guarded(NodeLocator nodes) {
            this(nodes, NumaAdaptiveLock.Thresholds.EAGER);
        }

        Guarded(NodeLocator nodes, NumaAdaptiveLock.Thresholds thresholds) {
            lock = new NumaAdaptiveLock(
                    new LockContext(nodes, CarrierPinning.schedulerParallelism()),
                    NumaMcsLock.DEFAULT_RESERVE_AFTER,
                    LockProbe.NONE,
                    thresholds);
        }

        void increment(int node, int times) {
            onNode(node);
            for (int i = 0; i < times; i++) {
                lock.lock();
                try {
                    counter++;
                } finally {
                    lock.unlock();
                }
            }
        }

        int tryIncrement(int node, boolean timed) {
            onNode(node);
            boolean got;
            try {
                got = timed ? lock.tryLock(50, TimeUnit.MICROSECONDS) : lock.tryLock();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 0;
            }
            if (!got) {
                return 0;
            }
            try {
                counter++;
            } finally {
                lock.unlock();
            }
            return 1;
        }

        void finish(III_Result r) {
            r.r1 = lock.isLocked() ? 1 : 0;
            r.r2 = counter;
            r.r3 = lock.modeSwitches() > 0 ? 1 : 0;
        }
    }

    /** Two actors, one node: a release that turns the lock queued races the other's spin, park and CAS. */
    @JCStressTest
    @Description("two actors on one node, two acquisitions each, eager mode switches")
    @Outcome(id = "0, 4, 0", expect = ACCEPTABLE, desc = "all four increments, no contention met, lean throughout")
    @Outcome(id = "0, 4, 1", expect = ACCEPTABLE, desc = "all four increments across mode switches")
    @Outcome(id = "0, [0-3], .*", expect = FORBIDDEN, desc = "lost update: two owners at once across a switch")
    @Outcome(id = "1, .*", expect = FORBIDDEN, desc = "the lock was left held")
    @State
    public static class ModeSwitchRacesLeanArrival extends Guarded {
        public ModeSwitchRacesLeanArrival() {
            super(NodeLocator.singleNode());
        }

        @Actor
        public void a() {
            increment(0, 2);
        }

        @Actor
        public void b() {
            increment(0, 2);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            finish(r);
        }
    }

    /** Two actors, two nodes: the queue lock's per-node queues and cross-node releases race the switches. */
    @JCStressTest
    @Description("two actors on two nodes, two acquisitions each, eager mode switches")
    @Outcome(id = "0, 4, 0", expect = ACCEPTABLE, desc = "all four increments, no contention met, lean throughout")
    @Outcome(id = "0, 4, 1", expect = ACCEPTABLE, desc = "all four increments across mode switches")
    @Outcome(id = "0, [0-3], .*", expect = FORBIDDEN, desc = "lost update: two owners at once across a switch")
    @Outcome(id = "1, .*", expect = FORBIDDEN, desc = "the lock was left held")
    @State
    public static class ModeSwitchRacesLeanArrivalCrossNode extends Guarded {
        public ModeSwitchRacesLeanArrivalCrossNode() {
            super(TWO_NODES);
        }

        @Actor
        public void a() {
            increment(0, 2);
        }

        @Actor
        public void b() {
            increment(1, 2);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            finish(r);
        }
    }

    /**
     * Three actors: with more threads than the round's carriers one of them parks in the word's
     * queue, so a release that turns the lock queued must wake it (no lost wake-up: a hang fails the
     * run) and it must leave the word's queue for the queue lock.
     */
    @JCStressTest
    @Description("three actors on one node, two acquisitions each, eager mode switches")
    @Outcome(id = "0, 6, [01]", expect = ACCEPTABLE, desc = "all six increments")
    @Outcome(id = "0, [0-5], .*", expect = FORBIDDEN, desc = "lost update: two owners at once across a switch")
    @Outcome(id = "1, .*", expect = FORBIDDEN, desc = "the lock was left held")
    @State
    public static class ModeSwitchRacesPark extends Guarded {
        public ModeSwitchRacesPark() {
            super(NodeLocator.singleNode());
        }

        @Actor
        public void a() {
            increment(0, 2);
        }

        @Actor
        public void b() {
            increment(0, 2);
        }

        @Actor
        public void c() {
            increment(0, 2);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            finish(r);
        }
    }

    /**
     * Two actors, no switch, no spin: a contended arrival parks in the word's parking queue (an AQS
     * apart from the word) at once, so each lean release, the word's volatile write then the queue's
     * read of its head, races the waiter's publish, re-check and park (a lost wake-up hangs the run).
     */
    @JCStressTest
    @Description("two actors on one node, two acquisitions each, lean only, contended arrivals park at once")
    @Outcome(id = "0, 4, 0", expect = ACCEPTABLE, desc = "all four increments, lean throughout")
    @Outcome(id = "0, [0-3], .*", expect = FORBIDDEN, desc = "lost update: two owners at once")
    @Outcome(id = "0, 4, 1", expect = FORBIDDEN, desc = "switched modes, which no threshold allows")
    @Outcome(id = "1, .*", expect = FORBIDDEN, desc = "the lock was left held")
    @State
    public static class LeanReleaseRacesPark extends Guarded {
        public LeanReleaseRacesPark() {
            super(NodeLocator.singleNode(), NumaAdaptiveLock.Thresholds.LEAN_PARKING);
        }

        @Actor
        public void a() {
            increment(0, 2);
        }

        @Actor
        public void b() {
            increment(0, 2);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            finish(r);
        }
    }

    /** tryLock and timed tryLock race lock/unlock pairs that switch modes: success means exclusive entry. */
    @JCStressTest
    @Description("one actor locks twice, the other tries once and once with a 50 us timeout; eager switches")
    @Outcome(id = "0, [2-4], [01]", expect = ACCEPTABLE, desc = "every increment of a successful acquisition")
    @Outcome(id = "0, [01], .*", expect = FORBIDDEN, desc = "lost update: the two lock() increments did not both land")
    @Outcome(id = ".*, -1, .*", expect = FORBIDDEN, desc = "the counter differs from the acquisitions that succeeded")
    @Outcome(id = "1, .*", expect = FORBIDDEN, desc = "the lock was left held")
    @State
    public static class TryLockRacesModeSwitch extends Guarded {
        private int tried;

        public TryLockRacesModeSwitch() {
            super(TWO_NODES);
        }

        @Actor
        public void a() {
            increment(0, 2);
        }

        @Actor
        public void b() {
            tried = tryIncrement(1, false) + tryIncrement(1, true);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            finish(r);
            if (r.r2 != 2 + tried) {
                r.r2 = -1; // an increment lost or doubled
            }
        }
    }
}
