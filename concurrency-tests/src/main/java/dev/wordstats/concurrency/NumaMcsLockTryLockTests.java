package dev.wordstats.concurrency;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.wordstats.numa.lock.queue.NumaMcsLock;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * tryLock and timed tryLock of {@link NumaMcsLock} against lock(): the result pair is (whether the
 * trying actor got the lock, the counter at the end). Run with
 * {@code java -jar concurrency-tests/target/jcstress.jar -t NumaMcsLockTryLock}.
 */
public final class NumaMcsLockTryLockTests {

    private NumaMcsLockTryLockTests() {}

    /** tryLock barges or fails at once; it must never succeed while the other actor is inside. */
    @JCStressTest
    @Description("tryLock vs lock, actors on different nodes")
    @Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "tryLock got the lock; both incremented, one after the other")
    @Outcome(
            id = "0, 1",
            expect = ACCEPTABLE,
            desc = "tryLock found the lock held and gave up; only lock() incremented")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "lost update: tryLock succeeded while the other actor was inside")
    @Outcome(id = "0, 2", expect = FORBIDDEN, desc = "counted an increment without holding the lock")
    @State
    public static class TryLockVsLock {
        private final Guarded guarded = new Guarded(new NumaMcsLock(ActorNodes.TWO_NODES));

        @Actor
        public void locker() {
            guarded.increment(0, 1);
        }

        @Actor
        public void trier(II_Result r) {
            r.r1 = guarded.tryIncrement(1) ? 1 : 0;
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r2 = guarded.counter();
        }
    }

    /**
     * A timed tryLock with a tiny timeout queues behind the owner and gives up while queued (or
     * acquires): leaving the queue must neither let it in nor strand the lock.
     */
    @JCStressTest
    @Description("timed tryLock (2 microseconds) vs lock, both on one node: the abort path of a queued waiter")
    @Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "the timed tryLock got the lock; both incremented")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the timed tryLock timed out; only lock() incremented")
    @Outcome(
            id = "1, 1",
            expect = FORBIDDEN,
            desc = "lost update: the timed tryLock got in while the other actor was inside")
    @Outcome(id = "0, 2", expect = FORBIDDEN, desc = "counted an increment without holding the lock")
    @Outcome(id = "-1, .*", expect = FORBIDDEN, desc = "the lock was left held after both actors finished")
    @State
    public static class TimedTryLockVsLock {
        private final NumaMcsLock lock = new NumaMcsLock(ActorNodes.TWO_NODES);
        private final Guarded guarded = new Guarded(lock);

        @Actor
        public void locker() {
            guarded.increment(0, 1);
        }

        @Actor
        public void timed(II_Result r) {
            r.r1 = guarded.tryIncrement(0, 2, TimeUnit.MICROSECONDS) ? 1 : 0;
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r2 = guarded.counter();
            if (lock.isLocked()) {
                r.r1 = -1;
            }
        }
    }
}
