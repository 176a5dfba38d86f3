package dev.wordstats.concurrency;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.MonitorLockSettings;
import dev.wordstats.numa.lock.MonitorLockSettings.Adaptation;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.lock.queue.NumaMcsLock;
import dev.wordstats.numa.lock.queue.NumaMonitorLock;
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
 * locks here are tuned through their public settings to switch at every chance ({@link #EAGER}): every lean
 * call that another call overtook turns the lock queued at its release and every queued release may turn it
 * lean again, so switches happen inside most rounds. The result pair is (the counter; 1 if the lock switched
 * modes in the round, else 0). Run with {@code java -jar concurrency-tests/target/jcstress.jar -t
 * NumaMonitorLock}.
 */
public final class NumaMonitorLockTests {

    private NumaMonitorLockTests() {}

    /**
     * Every acquisition sampled, every window of one sample saturated, a wait judged once one sampled
     * acquisition overtook it (with a bound of 0: every such wait turns the lock queued), turns of one release
     * at least and probations of one (never measured busy), and no word: lean from the start.
     */
    static final Adaptation EAGER = eager(1, Adaptation.DEFAULTS.busyPercent(), false);

    /** As EAGER, with probations of {@code firstProbation}, busy at {@code busyPercent}, a word if {@code word}. */
    static Adaptation eager(int firstProbation, int busyPercent, boolean word) {
        return new Adaptation(1, 1, 1, 0, firstProbation, busyPercent, word);
    }

    /** A lock that switches modes at every chance, and a plain counter only the lock orders. */
    abstract static class Switching {
        final NumaMonitorLock lock;
        int counter; // plain on purpose: a lost update means two critical sections at once

        Switching(NodeLocator nodes) {
            this(nodes, LockProbe.NONE);
        }

        Switching(NodeLocator nodes, LockProbe probe) {
            this(nodes, probe, EAGER);
        }

        Switching(NodeLocator nodes, LockProbe probe, Adaptation adaptation) {
            lock = new NumaMonitorLock(
                    new LockContext(nodes, CarrierPinning.schedulerParallelism()),
                    NumaMcsLock.DEFAULT_RESERVE_AFTER,
                    // a bound of 0: every wait that judgeAfter sampled acquisitions overtook turns the lock queued
                    new MonitorLockSettings(Duration.ZERO, adaptation),
                    probe);
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

        /**
         * The arbiter, both actors through: the counter, and 1 if the lock is still queued after calls of the
         * arbiter's own, at most {@code calls}, else 0. A queued lock that a caller alone, waiting for nobody,
         * cannot turn lean has a turn of the waiting callers that never ends: a straggler counted in and never
         * out. Those calls count nothing, and none of them turns the lock queued (nobody overtakes them).
         */
        void finishStuck(II_Result r, int calls) {
            r.r1 = counter;
            for (int i = 0; i < calls && lock.isQueued(); i++) {
                lock.run(() -> {});
            }
            r.r2 = lock.isQueued() ? 1 : 0;
        }
    }

    /** Two actors, one node: a release that turns the lock queued or lean races the other's arrival. */
    @JCStressTest
    @Description("two actors on one node, two calls each, eager mode switches")
    @Outcome(id = "4, [01]", expect = ACCEPTABLE, desc = "all four increments")
    @Outcome(id = "[0-3], .*", expect = FORBIDDEN, desc = "lost update: two critical sections at once across a switch")
    @State
    public static class ModeSwitchRacesArrival extends Switching {
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
     * turn. The result pair is (the counter; 1 if the lock is still queued after one call of the arbiter's own,
     * which ends any turn or probation of one release that has no straggler left, else 0).
     */
    @JCStressTest
    @Description("two actors on one node, three calls each: a turn's end racing a straggler and a lean call")
    @Outcome(id = "6, 0", expect = ACCEPTABLE, desc = "all six increments, every straggler served: lean again")
    @Outcome(id = "[0-5], .*", expect = FORBIDDEN, desc = "lost update: two critical sections at once across a turn")
    @Outcome(id = "[7-9], .*", expect = FORBIDDEN, desc = "a critical section run twice")
    @Outcome(id = "6, 1", expect = FORBIDDEN, desc = "a turn that never ends: a straggler counted in and never out")
    @State
    public static class TurnEndRacesStraggler extends Switching {
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
            finishStuck(r, 1);
        }
    }

    /**
     * Two actors, one node, probations of two releases whose drain closes after two queued releases: the queued
     * owner that closes the drain (in the monitor) races a caller that waited in the monitor since before the
     * switch, which then either runs its section there (the drain still open) or leaves and queues (a straggler),
     * and queued owners running their sections in the monitor or outside it. The threads come straight back, so
     * a switch is a probation once the watched thread has voted. No probation is busy (a share above 100%), so
     * one ends after its releases however long the holds; it may still double when the lock starves a caller
     * again soon, at most once a switch. The result pair is (the counter; 1 if the lock is still queued after
     * calls of the arbiter's own, as many as the longest probation the round can reach, else 0).
     */
    @JCStressTest
    @Description("two actors on one node, four calls each: a probation's drain closing racing a straggler")
    @Outcome(id = "8, 0", expect = ACCEPTABLE, desc = "all eight increments, every straggler served: lean again")
    @Outcome(id = "[0-7], .*", expect = FORBIDDEN, desc = "lost update: two sections at once across the drain")
    @Outcome(id = "(9|1[0-9]), .*", expect = FORBIDDEN, desc = "a critical section run twice")
    @Outcome(id = "8, 1", expect = FORBIDDEN, desc = "a turn that never ends: a straggler counted in and never out")
    @State
    public static class DrainEndRacesStraggler extends Switching {
        public DrainEndRacesStraggler() {
            super(NodeLocator.singleNode(), LockProbe.NONE, eager(2, 101, false));
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
            finishStuck(r, 2 << 8); // probations of 2, doubled at most once for each of the 8 sections' switches
        }
    }

    /** Two actors, two nodes: the queue lock's per-node queues and cross-node releases race the switches. */
    @JCStressTest
    @Description("two actors on two nodes, two calls each, eager mode switches")
    @Outcome(id = "4, [01]", expect = ACCEPTABLE, desc = "all four increments")
    @Outcome(id = "[0-3], .*", expect = FORBIDDEN, desc = "lost update: two critical sections at once across a switch")
    @State
    public static class ModeSwitchRacesArrivalCrossNode extends Switching {
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
    public static class NestedCallRacesModeSwitch extends Switching {
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
    public static class ProbedModeSwitchRacesArrivalCrossNode extends Switching {
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
    public static class ProbedNestedCallRacesModeSwitch extends Switching {
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

    /**
     * Two actors, one node, probed (a caller that finds a section running waits in the queue lock, counted as a
     * waiter), every wait past the bound of 0: a queued owner that waited the bound ends the turn at its release
     * only when nobody waits for the queue lock behind it, which races the other actor counting itself in and
     * waiting. A waiter it missed gets the queue lock after the release, reads lean and makes a lean call. The
     * result pair is (the counter; 1 if the lock is still queued after one call of the arbiter's own, else 0).
     */
    @JCStressTest
    @Description("two actors on one node, three probed calls each: a turn's end at an empty queue racing a waiter")
    @Outcome(id = "6, 0", expect = ACCEPTABLE, desc = "all six increments, the turn over: lean again")
    @Outcome(id = "[0-5], .*", expect = FORBIDDEN, desc = "lost update: two critical sections at once across a turn")
    @Outcome(id = "[7-9], .*", expect = FORBIDDEN, desc = "a critical section run twice")
    @Outcome(id = "6, 1", expect = FORBIDDEN, desc = "a turn that never ends: a waiter counted in and never out")
    @State
    public static class ProbedTurnEndRacesQueueWaiter extends Switching {
        public ProbedTurnEndRacesQueueWaiter() {
            super(NodeLocator.singleNode(), new TimedProbe());
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
            finishStuck(r, 1);
        }
    }
}
