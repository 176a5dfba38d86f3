package dev.wordstats.numa.lock;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.wordstats.concurrency.ActorNodes;
import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The mode switches of {@link NumaMonitorLock} racing lean calls, queued calls and reentrant calls. The
 * locks here use {@code Thresholds.EAGER}: every lean call that another call overtook turns the lock
 * queued at its release and every queued release turns it lean again, so switches happen inside most
 * rounds. The tests sit in the lock's package for that package-private constructor. The result pair is
 * (the counter; 1 if the lock switched modes in the round, else 0). Run with
 * {@code java -jar concurrency-tests/target/jcstress.jar -t NumaMonitorLock}.
 */
public final class NumaMonitorLockTests {

    private NumaMonitorLockTests() {}

    /** A lock that switches modes at every chance, and a plain counter only the lock orders. */
    abstract static class Guarded {
        final NumaMonitorLock lock;
        int counter; // plain on purpose: a lost update means two critical sections at once

        Guarded(NodeLocator nodes) {
            this(nodes, LockProbe.NONE);
        }

        Guarded(NodeLocator nodes, LockProbe probe) {
            this(nodes, probe, NumaMonitorLock.Thresholds.EAGER);
        }

        Guarded(NodeLocator nodes, LockProbe probe, NumaMonitorLock.Thresholds thresholds) {
            lock = new NumaMonitorLock(
                    new LockContext(nodes, CarrierPinning.schedulerParallelism()),
                    NumaMcsLock.DEFAULT_RESERVE_AFTER,
                    Duration.ZERO, // every wait that STARVING_EPOCHS overtook turns the lock queued
                    probe,
                    thresholds);
        }

        void increment(int node, int times) {
            ActorNodes.runOn(node);
            for (int i = 0; i < times; i++) {
                if ((i & 1) == 0) { // run and call take paths of their own into the same modes
                    lock.run(() -> counter++);
                } else {
                    lock.call(() -> counter++);
                }
            }
        }

        /**
         * One increment, and one more from a call two deep inside it (reentrant calls, inline): the middle
         * call's end may turn the lock queued while the outer section goes on.
         */
        void incrementNested(int node, int times) {
            ActorNodes.runOn(node);
            for (int i = 0; i < times; i++) {
                lock.run(() -> {
                    counter++;
                    lock.call(() -> {
                        lock.run(() -> counter++);
                        return null;
                    });
                });
            }
        }

        void finish(II_Result r) {
            r.r1 = counter;
            r.r2 = lock.modeSwitches() > 0 ? 1 : 0;
        }
    }

    /** Two actors, one node: a release that turns the lock queued or lean races the other's arrival. */
    @JCStressTest
    @Description("two actors on one node, two calls each, eager mode switches")
    @Outcome(id = "4, [01]", expect = ACCEPTABLE, desc = "all four increments")
    @Outcome(id = "[0-3], .*", expect = FORBIDDEN, desc = "lost update: two critical sections at once across a switch")
    @State
    public static class ModeSwitchRacesArrival extends Guarded {
        public ModeSwitchRacesArrival() {
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
        public void arbiter(II_Result r) {
            finish(r);
        }
    }

    /**
     * Two actors, one node, the lock turning queued for a turn of the waiting callers at every chance: a caller
     * that read lean and found the lock queued in the monitor (a straggler) races the release that would end the
     * turn. The result pair is (the counter; the stragglers still counted once both actors are through).
     */
    @JCStressTest
    @Description("two actors on one node, three calls each: a turn's end racing a straggler and a lean call")
    @Outcome(id = "6, 0", expect = ACCEPTABLE, desc = "all six increments, every straggler served")
    @Outcome(id = "[0-5], .*", expect = FORBIDDEN, desc = "lost update: two critical sections at once across a turn")
    @Outcome(id = "[7-9], .*", expect = FORBIDDEN, desc = "a critical section run twice")
    @Outcome(id = "6, [^0].*", expect = FORBIDDEN, desc = "a straggler counted in and never out")
    @State
    public static class TurnEndRacesStraggler extends Guarded {
        public TurnEndRacesStraggler() {
            super(NodeLocator.singleNode());
        }

        @Actor
        public void a() {
            increment(0, 3);
        }

        @Actor
        public void b() {
            increment(0, 3);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = counter;
            NumaMonitorLock.QueuedMode mode = lock.queuedModeForTests();
            r.r2 = mode == null ? 0 : mode.stragglers();
        }
    }

    /**
     * Two actors, one node, probations of two releases whose drain closes after two queued releases: the queued
     * owner that closes the drain (in the monitor) races a caller that waited in the monitor since before the
     * switch, which then either runs its section there (the drain still open) or leaves and queues (a straggler),
     * and queued owners running their sections in the monitor or outside it. The threads come straight back, so
     * a switch is a probation once the watched thread has voted. The result pair is (the counter; the
     * stragglers still counted once both actors are through).
     */
    @JCStressTest
    @Description("two actors on one node, four calls each: a probation's drain closing racing a straggler")
    @Outcome(id = "8, 0", expect = ACCEPTABLE, desc = "all eight increments, every straggler served")
    @Outcome(id = "[0-7], .*", expect = FORBIDDEN, desc = "lost update: two sections at once across the drain")
    @Outcome(id = "(9|1[0-9]), .*", expect = FORBIDDEN, desc = "a critical section run twice")
    @Outcome(id = "8, [^0].*", expect = FORBIDDEN, desc = "a straggler counted in and never out")
    @State
    public static class DrainEndRacesStraggler extends Guarded {
        public DrainEndRacesStraggler() {
            super(NodeLocator.singleNode(), LockProbe.NONE, new NumaMonitorLock.Thresholds(0, 1, 1, 0, 2));
        }

        @Actor
        public void a() {
            increment(0, 4);
        }

        @Actor
        public void b() {
            increment(0, 4);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = counter;
            NumaMonitorLock.QueuedMode mode = lock.queuedModeForTests();
            r.r2 = mode == null ? 0 : mode.stragglers();
        }
    }

    /** Two actors, two nodes: the queue lock's per-node queues and cross-node releases race the switches. */
    @JCStressTest
    @Description("two actors on two nodes, two calls each, eager mode switches")
    @Outcome(id = "4, [01]", expect = ACCEPTABLE, desc = "all four increments")
    @Outcome(id = "[0-3], .*", expect = FORBIDDEN, desc = "lost update: two critical sections at once across a switch")
    @State
    public static class ModeSwitchRacesArrivalCrossNode extends Guarded {
        public ModeSwitchRacesArrivalCrossNode() {
            super(ActorNodes.TWO_NODES);
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
        public void arbiter(II_Result r) {
            finish(r);
        }
    }

    /**
     * Two actors, each with calls nested two deep inside its critical section: a switch to queued at the end
     * of a middle call, while its outer section goes on, races the other actor's queued call, which must not
     * start its section before that outer section ends (the drain: it waits for the monitor), and the outer
     * section's next call runs inline (a wait for the queue lock would deadlock, and jcstress would report the
     * round as stuck).
     */
    @JCStressTest
    @Description("two actors on one node, a call with calls nested two deep each, eager mode switches")
    @Outcome(id = "4, [01]", expect = ACCEPTABLE, desc = "all four increments")
    @Outcome(id = "[0-3], .*", expect = FORBIDDEN, desc = "lost update: two critical sections at once across a switch")
    @State
    public static class NestedCallRacesModeSwitch extends Guarded {
        public NestedCallRacesModeSwitch() {
            super(NodeLocator.singleNode());
        }

        @Actor
        public void a() {
            incrementNested(0, 1);
        }

        @Actor
        public void b() {
            incrementNested(0, 1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            finish(r);
        }
    }

    /** A timed probe that hears every acquisition, as the service's: the lock then takes its probed call. */
    static final class TimedProbe implements LockProbe {
        @Override
        public boolean timed() {
            return true;
        }

        @Override
        public void acquired(boolean waited, long waitNanos) {}
    }

    /** As ModeSwitchRacesArrivalCrossNode, through the probed call, whose sections run in its own frame. */
    @JCStressTest
    @Description("two actors on two nodes, two probed calls each, eager mode switches")
    @Outcome(id = "4, [01]", expect = ACCEPTABLE, desc = "all four increments")
    @Outcome(id = "[0-3], .*", expect = FORBIDDEN, desc = "lost update: two critical sections at once across a switch")
    @State
    public static class ProbedModeSwitchRacesArrivalCrossNode extends Guarded {
        public ProbedModeSwitchRacesArrivalCrossNode() {
            super(ActorNodes.TWO_NODES, new TimedProbe());
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
        public void arbiter(II_Result r) {
            finish(r);
        }
    }

    /**
     * As NestedCallRacesModeSwitch, probed: the nested calls run inline at once (the holder is the probed
     * runner), so only an outer call's end switches, racing the other actor's arrival in either mode. Two
     * outer calls each: the eager lock needs two sampled windows before its first switch.
     */
    @JCStressTest
    @Description("two actors on one node, two probed calls with calls nested two deep each, eager mode switches")
    @Outcome(id = "8, [01]", expect = ACCEPTABLE, desc = "all eight increments")
    @Outcome(id = "[0-7], .*", expect = FORBIDDEN, desc = "lost update: two critical sections at once across a switch")
    @State
    public static class ProbedNestedCallRacesModeSwitch extends Guarded {
        public ProbedNestedCallRacesModeSwitch() {
            super(NodeLocator.singleNode(), new TimedProbe());
        }

        @Actor
        public void a() {
            incrementNested(0, 2);
        }

        @Actor
        public void b() {
            incrementNested(0, 2);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            finish(r);
        }
    }
}
