package dev.wordstats.concurrency;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.combining.CombiningLock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The combining handover of {@link CombiningLock}: a critical section published by a waiter runs exactly
 * once, on whichever thread combines, and its result (a plain field of a new object) or its exception
 * reaches its own caller whole. Run with {@code java -jar concurrency-tests/target/jcstress.jar -t
 * CombiningLockTests}.
 */
public final class CombiningLockTests {

    private CombiningLockTests() {}

    /** One queue: each actor's section runs once and its caller gets its own result, whole. */
    @JCStressTest
    @Description("two callers publish a critical section each (one queue)")
    @Outcome(
            id = {"1, 2, 1, 1", "2, 1, 1, 1"},
            expect = ACCEPTABLE,
            desc = "each section ran once, one after the other, and its caller got its own result")
    @Outcome(expect = FORBIDDEN, desc = "a section ran twice or not at all, overlapped, or its result was lost or torn")
    @State
    public static class ExactlyOnce {
        private final Guard guard = new CombiningLock();
        private int x; // plain: only under the guard
        private int ran1; // plain: only under the guard
        private int ran2; // plain: only under the guard

        @Actor
        public void actor1(IIII_Result r) {
            r.r1 = guard.call(() -> {
                        ran1++;
                        return new Box(++x);
                    })
                    .value;
        }

        @Actor
        public void actor2(IIII_Result r) {
            r.r2 = guard.call(() -> {
                        ran2++;
                        return new Box(++x);
                    })
                    .value;
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r3 = ran1;
            r.r4 = ran2;
        }
    }

    /** One queue: one section throws; the exception reaches its own caller and the other section still runs. */
    @JCStressTest
    @Description("one caller's critical section throws (one queue)")
    @Outcome(
            id = {"1, 2", "2, 1"},
            expect = ACCEPTABLE,
            desc = "the thrower caught its own exception, the other caller got its result")
    @Outcome(expect = FORBIDDEN, desc = "the exception or the result was lost or reached the wrong caller")
    @State
    public static class ExceptionToItsCaller {
        private final Guard guard = new CombiningLock();
        private int x; // plain: only under the guard

        @Actor
        public void thrower(II_Result r) {
            try {
                guard.run(() -> {
                    throw new Failure(++x);
                });
                r.r1 = -1;
            } catch (Failure f) {
                r.r1 = f.value;
            }
        }

        @Actor
        public void returner(II_Result r) {
            try {
                r.r2 = guard.call(() -> ++x);
            } catch (Failure f) {
                r.r2 = -2;
            }
        }
    }

    /** A result with a plain field: the caller sees it set only if the handover publishes it. */
    static final class Box {
        int value; // plain: written by whichever thread ran the section

        Box(int value) {
            this.value = value;
        }
    }

    /** The exception a section throws, carrying the counter it saw. */
    static final class Failure extends RuntimeException {
        final int value;

        Failure(int value) {
            super(null, null, false, false);
            this.value = value;
        }
    }
}
