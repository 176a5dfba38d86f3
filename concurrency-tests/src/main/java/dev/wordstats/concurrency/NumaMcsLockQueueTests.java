package dev.wordstats.concurrency;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.wordstats.numa.lock.queue.NumaMcsLock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * Queues longer than one waiter: a granted successor inside a node queue, a leader of another node
 * and a barging re-acquisition all at once. These need three and four actors, so jcstress runs them
 * only on machines with at least that many CPUs; on a 2-CPU machine it reports that it cannot
 * schedule them and runs the rest (the unit tests' contended runs cover long queues there). Run with
 * {@code java -jar concurrency-tests/target/jcstress.jar -t NumaMcsLockQueue}.
 */
public final class NumaMcsLockQueueTests {

    private NumaMcsLockQueueTests() {}

    /** Two actors queue on node 0 while a third on node 1 takes the lock twice. */
    @JCStressTest
    @Description("three actors, two nodes: a node queue of two plus a barging re-acquisition from the other node")
    @Outcome(id = "4", expect = ACCEPTABLE, desc = "all four increments happened")
    @Outcome(
            id = {"1", "2", "3"},
            expect = FORBIDDEN,
            desc = "lost update: two actors were inside the lock at once")
    @State
    public static class ThreeActors {
        private final Guarded guarded = new Guarded(new NumaMcsLock(ActorNodes.TWO_NODES));

        @Actor
        public void first() {
            guarded.increment(0, 1);
        }

        @Actor
        public void second() {
            guarded.increment(0, 1);
        }

        @Actor
        public void twice() {
            guarded.increment(1, 2);
        }

        @Arbiter
        public void arbiter(I_Result r) {
            r.r1 = guarded.counter();
        }
    }

    /** Two actors per node, each taking the lock twice: both queues hold successors while leaders race for the flag. */
    @JCStressTest
    @Description("four actors, two per node, two acquisitions each")
    @Outcome(id = "8", expect = ACCEPTABLE, desc = "all eight increments happened")
    @Outcome(
            id = {"[1-7]"},
            expect = FORBIDDEN,
            desc = "lost update: two actors were inside the lock at once")
    @State
    public static class FourActors {
        private final Guarded guarded = new Guarded(new NumaMcsLock(ActorNodes.TWO_NODES));

        @Actor
        public void a0() {
            guarded.increment(0, 2);
        }

        @Actor
        public void b0() {
            guarded.increment(0, 2);
        }

        @Actor
        public void a1() {
            guarded.increment(1, 2);
        }

        @Actor
        public void b1() {
            guarded.increment(1, 2);
        }

        @Arbiter
        public void arbiter(I_Result r) {
            r.r1 = guarded.counter();
        }
    }
}
