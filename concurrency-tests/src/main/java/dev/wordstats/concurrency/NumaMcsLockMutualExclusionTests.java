package dev.wordstats.concurrency;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.wordstats.numa.lock.queue.NumaMcsLock;
import dev.wordstats.numa.topology.NodeLocator;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * Two actors each increment a plain counter under {@link NumaMcsLock}; a lost update means both
 * were inside at once. Run with {@code java -jar concurrency-tests/target/jcstress.jar -t NumaMcsLockMutualExclusion}.
 */
public final class NumaMcsLockMutualExclusionTests {

    private NumaMcsLockMutualExclusionTests() {}

    /** Both actors on one node: the waiter queues behind the owner in the node's MCS queue. */
    @JCStressTest
    @Description("lock/increment/unlock by two actors on one node")
    @Outcome(id = "2", expect = ACCEPTABLE, desc = "both increments happened, one after the other")
    @Outcome(id = "1", expect = FORBIDDEN, desc = "lost update: both actors were inside the lock at once")
    @State
    public static class SameNode {
        private final Guarded guarded = new Guarded(new NumaMcsLock(NodeLocator.singleNode()));

        @Actor
        public void actor1() {
            guarded.increment(0, 1);
        }

        @Actor
        public void actor2() {
            guarded.increment(0, 1);
        }

        @Arbiter
        public void arbiter(I_Result r) {
            r.r1 = guarded.counter();
        }
    }

    /** Actors on different nodes: each is the leader of its node's queue and they race for the global flag. */
    @JCStressTest
    @Description("lock/increment/unlock by two actors on different nodes (cross-node path)")
    @Outcome(id = "2", expect = ACCEPTABLE, desc = "both increments happened, one after the other")
    @Outcome(id = "1", expect = FORBIDDEN, desc = "lost update: both actors were inside the lock at once")
    @State
    public static class CrossNode {
        private final Guarded guarded = new Guarded(new NumaMcsLock(ActorNodes.TWO_NODES));

        @Actor
        public void actor1() {
            guarded.increment(0, 1);
        }

        @Actor
        public void actor2() {
            guarded.increment(1, 1);
        }

        @Arbiter
        public void arbiter(I_Result r) {
            r.r1 = guarded.counter();
        }
    }

    /** One actor takes the lock twice in a row, the other once, all on one node: queue handoffs in both directions. */
    @JCStressTest
    @Description("two acquisitions by one actor against one by another, same node")
    @Outcome(id = "3", expect = ACCEPTABLE, desc = "all three increments happened")
    @Outcome(
            id = {"1", "2"},
            expect = FORBIDDEN,
            desc = "lost update: both actors were inside the lock at once")
    @State
    public static class RepeatedAcquisition {
        private final Guarded guarded = new Guarded(new NumaMcsLock(NodeLocator.singleNode()));

        @Actor
        public void actor1() {
            guarded.increment(0, 2);
        }

        @Actor
        public void actor2() {
            guarded.increment(0, 1);
        }

        @Arbiter
        public void arbiter(I_Result r) {
            r.r1 = guarded.counter();
        }
    }
}
