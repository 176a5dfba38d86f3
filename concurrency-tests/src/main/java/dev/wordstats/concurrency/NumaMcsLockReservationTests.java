package dev.wordstats.concurrency;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.wordstats.numa.lock.queue.NumaMcsLock;
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
 * {@link NumaMcsLock}'s reservation with a zero threshold, so every leader that parks reserves
 * first: the reservation races the owner's release, and a reserving timed tryLock gives up while
 * the lock is released. The result pair is (1 if the lock was left held or reserved after both
 * actors finished, else 0; the counter). Run with
 * {@code java -jar concurrency-tests/target/jcstress.jar -t NumaMcsLockReservation}.
 */
public final class NumaMcsLockReservationTests {

    private NumaMcsLockReservationTests() {}

    static void finish(NumaMcsLock lock, Guarded guarded, II_Result r) {
        r.r1 = lock.isLocked() || lock.isReserved() ? 1 : 0;
        r.r2 = guarded.counter();
    }

    /** Leaders of two nodes, each taking the lock twice; a parking leader reserves at once. */
    @JCStressTest
    @Description("zero threshold, two actors on two nodes, two acquisitions each: reservation races release")
    @Outcome(id = "0, 4", expect = ACCEPTABLE, desc = "all four increments, the lock left free and unreserved")
    @Outcome(id = "0, [0-3]", expect = FORBIDDEN, desc = "lost update: two owners at once")
    @Outcome(id = "1, .*", expect = FORBIDDEN, desc = "the lock was left held or reserved")
    @State
    public static class ReservationRacesRelease {
        private final NumaMcsLock lock = new NumaMcsLock(ActorNodes.TWO_NODES, Duration.ZERO);
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

    /** A timed tryLock that may reserve and then time out while the other node's owner releases. */
    @JCStressTest
    @Description("zero threshold, timed tryLock (50 us) vs lock on two nodes: reservation races the timeout")
    @Outcome(id = "0, 3", expect = ACCEPTABLE, desc = "the timed tryLock got the lock")
    @Outcome(id = "0, 2", expect = ACCEPTABLE, desc = "the timed tryLock timed out")
    @Outcome(id = "0, [01]", expect = FORBIDDEN, desc = "lost update: two owners at once")
    @Outcome(id = "1, .*", expect = FORBIDDEN, desc = "the lock was left held or reserved")
    @State
    public static class ReservationRacesTimeout {
        private final NumaMcsLock lock = new NumaMcsLock(ActorNodes.TWO_NODES, Duration.ZERO);
        private final Guarded guarded = new Guarded(lock);

        @Actor
        public void locker() {
            guarded.increment(0, 2);
        }

        @Actor
        public void timed() {
            guarded.tryIncrement(1, 50, TimeUnit.MICROSECONDS);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            finish(lock, guarded, r);
        }
    }
}
