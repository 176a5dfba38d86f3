package dev.wordstats.concurrency;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.combining.NumaCombiningLock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The combining handover of {@link NumaCombiningLock} on one node (one queue: the handover within it) and
 * across two (two node combiners and the global lock): a published critical section runs exactly once and
 * its result or its exception reaches its own caller whole. Run with {@code java -jar
 * concurrency-tests/target/jcstress.jar -t NumaCombiningLockTests}.
 */
public final class NumaCombiningLockTests {

    private NumaCombiningLockTests() {}

    /** Both actors on node 0 of two: each actor's section runs once and its caller gets its own result, whole. */
    @JCStressTest
    @Description("two callers publish a critical section each (both actors on node 0 of two)")
    @Outcome(
            id = {"1, 2, 1, 1", "2, 1, 1, 1"},
            expect = ACCEPTABLE,
            desc = "each section ran once, one after the other, and its caller got its own result")
    @Outcome(expect = FORBIDDEN, desc = "a section ran twice or not at all, overlapped, or its result was lost or torn")
    @State
    public static class SameNodeExactlyOnce {
        private final Guard guard = new NumaCombiningLock(ActorNodes.TWO_NODES);
        private int x; // plain: only under the guard
        private int ran1; // plain: only under the guard
        private int ran2; // plain: only under the guard

        @Actor
        public void actor1(IIII_Result r) {
            ActorNodes.runOn(0);
            r.r1 = guard.call(() -> {
                        ran1++;
                        return new Box(++x);
                    })
                    .value;
        }

        @Actor
        public void actor2(IIII_Result r) {
            ActorNodes.runOn(0);
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

    /** Both actors on node 0 of two: a throwing section's exception reaches its own caller; the other runs. */
    @JCStressTest
    @Description("one caller's critical section throws (both actors on node 0 of two)")
    @Outcome(
            id = {"1, 2", "2, 1"},
            expect = ACCEPTABLE,
            desc = "the thrower caught its own exception, the other caller got its result")
    @Outcome(expect = FORBIDDEN, desc = "the exception or the result was lost or reached the wrong caller")
    @State
    public static class SameNodeExceptionToItsCaller {
        private final Guard guard = new NumaCombiningLock(ActorNodes.TWO_NODES);
        private int x; // plain: only under the guard

        @Actor
        public void thrower(II_Result r) {
            ActorNodes.runOn(0);
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
            ActorNodes.runOn(0);
            try {
                r.r2 = guard.call(() -> ++x);
            } catch (Failure f) {
                r.r2 = -2;
            }
        }
    }

    /** Actors on nodes 0 and 1: each actor's section runs once and its caller gets its own result, whole. */
    @JCStressTest
    @Description("two callers publish a critical section each (actors on nodes 0 and 1)")
    @Outcome(
            id = {"1, 2, 1, 1", "2, 1, 1, 1"},
            expect = ACCEPTABLE,
            desc = "each section ran once, one after the other, and its caller got its own result")
    @Outcome(expect = FORBIDDEN, desc = "a section ran twice or not at all, overlapped, or its result was lost or torn")
    @State
    public static class CrossNodeExactlyOnce {
        private final Guard guard = new NumaCombiningLock(ActorNodes.TWO_NODES);
        private int x; // plain: only under the guard
        private int ran1; // plain: only under the guard
        private int ran2; // plain: only under the guard

        @Actor
        public void actor1(IIII_Result r) {
            ActorNodes.runOn(0);
            r.r1 = guard.call(() -> {
                        ran1++;
                        return new Box(++x);
                    })
                    .value;
        }

        @Actor
        public void actor2(IIII_Result r) {
            ActorNodes.runOn(1);
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

    /** Actors on nodes 0 and 1: a throwing section's exception reaches its own caller; the other runs. */
    @JCStressTest
    @Description("one caller's critical section throws (actors on nodes 0 and 1)")
    @Outcome(
            id = {"1, 2", "2, 1"},
            expect = ACCEPTABLE,
            desc = "the thrower caught its own exception, the other caller got its result")
    @Outcome(expect = FORBIDDEN, desc = "the exception or the result was lost or reached the wrong caller")
    @State
    public static class CrossNodeExceptionToItsCaller {
        private final Guard guard = new NumaCombiningLock(ActorNodes.TWO_NODES);
        private int x; // plain: only under the guard

        @Actor
        public void thrower(II_Result r) {
            ActorNodes.runOn(0);
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
            ActorNodes.runOn(1);
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
