package dev.wordstats.concurrency;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.wordstats.numa.lock.queue.NumaMcsLock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * What one owner writes under {@link NumaMcsLock} the next owner sees whole: the unlock-then-lock
 * handoff is a happens-before edge on the fast path, through a node queue and across nodes. Run with
 * {@code java -jar concurrency-tests/target/jcstress.jar -t NumaMcsLockHandoff}.
 */
public final class NumaMcsLockHandoffTests {

    private NumaMcsLockHandoffTests() {}

    /** Writer and reader on different nodes: the lock moves between node queues through the flag. */
    @JCStressTest
    @Description("writer unlocks, reader locks: the reader sees both writes or neither (cross-node)")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the reader held the lock first")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the reader held the lock after the writer and saw both writes")
    @Outcome(
            id = {"0, 1", "1, 0"},
            expect = FORBIDDEN,
            desc = "torn view: the reader ran inside the writer's critical section, or the handoff lost a write")
    @State
    public static class CrossNode {
        private final Guarded guarded = new Guarded(new NumaMcsLock(ActorNodes.TWO_NODES));

        @Actor
        public void writer() {
            guarded.writePair(0);
        }

        @Actor
        public void reader(II_Result r) {
            guarded.readPair(1, r);
        }
    }

    /** Writer and reader on one node: the handoff goes through the node's MCS queue. */
    @JCStressTest
    @Description("writer unlocks, reader locks: the reader sees both writes or neither (same node)")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the reader held the lock first")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the reader held the lock after the writer and saw both writes")
    @Outcome(
            id = {"0, 1", "1, 0"},
            expect = FORBIDDEN,
            desc = "torn view: the reader ran inside the writer's critical section, or the handoff lost a write")
    @State
    public static class SameNode {
        private final Guarded guarded = new Guarded(new NumaMcsLock(ActorNodes.TWO_NODES));

        @Actor
        public void writer() {
            guarded.writePair(0);
        }

        @Actor
        public void reader(II_Result r) {
            guarded.readPair(0, r);
        }
    }
}
