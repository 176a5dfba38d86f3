package dev.wordstats.concurrency;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.lock.queue.NumaHandoffLock;
import dev.wordstats.numa.lock.queue.NumaMcsLock;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A signal racing a timed await's timeout, on the Conditions of {@link NumaMcsLock} and
 * {@link NumaHandoffLock}. The waiter takes the lock twice (so the await must release both holds
 * for the signaller to get in), notes its deadline, and awaits with a bound short enough to expire
 * in many rounds; the signaller takes the lock again and again until it sees the waiter waiting (it then
 * signals and reads the clock) or done. The result triple is (1 if the await returned signalled, 0 if it timed out;
 * 1 if the waiter held the lock with both holds on return, else 0; what the signaller saw: 0 the
 * waiter already done, 1 a waiter it signalled at or past the waiter's deadline, 2 a waiter it signalled
 * before the deadline). A waiter can give up only at or past its deadline, so a signal finished
 * before it must have been delivered: (0, 1, 2) is a lost signal. Run with {@code java -jar
 * concurrency-tests/target/jcstress.jar -t ConditionSignalRacesTimeout}.
 */
public final class ConditionSignalRacesTimeoutTests {

    private ConditionSignalRacesTimeoutTests() {}

    /** The await's bound: a few park and unpark round trips, so both outcomes occur. */
    static final long BOUND_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    /** The state both actors share: the waiter's flag and deadline, guarded by the lock. */
    abstract static class Race {
        private boolean waiting; // guarded by the lock
        private boolean done; // guarded by the lock: the waiter has returned from its await
        private long deadline; // guarded by the lock

        abstract void lock();

        abstract void unlock();

        abstract int holdCount();

        abstract Condition condition();

        final void await(III_Result r) {
            lock();
            lock();
            try {
                deadline = System.nanoTime() + BOUND_NANOS;
                waiting = true;
                boolean signalled;
                try {
                    signalled = condition().await(BOUND_NANOS, TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    throw new AssertionError("nobody interrupts the waiter", e);
                }
                waiting = false;
                done = true;
                r.r1 = signalled ? 1 : 0;
                r.r2 = holdCount() == 2 ? 1 : 0;
            } finally {
                unlock();
                unlock();
            }
        }

        /**
         * Takes the lock until it sees the waiter waiting (then signals it) or done; bounded by the
         * waiter's own bound, since the waiter's await times out.
         */
        final void signal(III_Result r) {
            for (int tries = 1; ; tries++) {
                lock();
                try {
                    if (waiting) {
                        condition().signal();
                        r.r3 = System.nanoTime() - deadline < 0L ? 2 : 1;
                        return;
                    }
                    if (done) {
                        r.r3 = 0;
                        return;
                    }
                } finally {
                    unlock();
                }
                if ((tries & 63) == 0) {
                    Thread.yield(); // let a waiter that shares this CPU take the lock
                } else {
                    Thread.onSpinWait();
                }
            }
        }
    }

    /** The race on a {@link NumaMcsLock} as {@code LockType.NUMA_MCS} builds it. */
    abstract static class McsRace extends Race {
        private final NumaMcsLock lock = new NumaMcsLock(NodeLocator.singleNode());
        private final Condition condition = lock.newCondition();

        @Override
        final void lock() {
            lock.lock();
        }

        @Override
        final void unlock() {
            lock.unlock();
        }

        @Override
        final int holdCount() {
            return lock.getHoldCount();
        }

        @Override
        final Condition condition() {
            return condition;
        }
    }

    /** The race on a {@link NumaHandoffLock} as {@code LockType.NUMA_HANDOFF} builds it. */
    abstract static class HandoffRace extends Race {
        private final NumaHandoffLock lock = new NumaHandoffLock(
                NodeLocator.singleNode(), NumaMcsLock.DEFAULT_RESERVE_AFTER, CarrierPinning.schedulerParallelism());
        private final Condition condition = lock.newCondition();

        @Override
        final void lock() {
            lock.lock();
        }

        @Override
        final void unlock() {
            lock.unlock();
        }

        @Override
        final int holdCount() {
            return lock.getHoldCount();
        }

        @Override
        final Condition condition() {
            return condition;
        }
    }

    /** NumaMcsLock: a signal racing the timeout of a timed await. */
    @JCStressTest
    @Description("a signal racing a timed await's timeout on a NumaMcsLock condition")
    @Outcome(
            id = "0, 1, 0",
            expect = ACCEPTABLE,
            desc = "the signaller never saw the waiter waiting: the await timed out")
    @Outcome(id = "1, 1, [12]", expect = ACCEPTABLE, desc = "signal delivered, the waiter holds the lock again")
    @Outcome(
            id = "0, 1, 1",
            expect = ACCEPTABLE_INTERESTING,
            desc = "the waiter's deadline passed before the signal: it timed out, the signal found nobody")
    @Outcome(id = "0, 1, 2", expect = FORBIDDEN, desc = "lost signal: signalled before the deadline, yet timed out")
    @Outcome(id = "1, 1, 0", expect = FORBIDDEN, desc = "the await returned signalled with no signal")
    @Outcome(id = "[01], 0, .*", expect = FORBIDDEN, desc = "the waiter returned without both its holds")
    @State
    public static class NumaMcsLockSignalRacesTimeout extends McsRace {
        @Actor
        public void waiter(III_Result r) {
            await(r);
        }

        @Actor
        public void signaller(III_Result r) {
            signal(r);
        }
    }

    /** NumaHandoffLock: a signal racing the timeout of a timed await. */
    @JCStressTest
    @Description("a signal racing a timed await's timeout on a NumaHandoffLock condition")
    @Outcome(
            id = "0, 1, 0",
            expect = ACCEPTABLE,
            desc = "the signaller never saw the waiter waiting: the await timed out")
    @Outcome(id = "1, 1, [12]", expect = ACCEPTABLE, desc = "signal delivered, the waiter holds the lock again")
    @Outcome(
            id = "0, 1, 1",
            expect = ACCEPTABLE_INTERESTING,
            desc = "the waiter's deadline passed before the signal: it timed out, the signal found nobody")
    @Outcome(id = "0, 1, 2", expect = FORBIDDEN, desc = "lost signal: signalled before the deadline, yet timed out")
    @Outcome(id = "1, 1, 0", expect = FORBIDDEN, desc = "the await returned signalled with no signal")
    @Outcome(id = "[01], 0, .*", expect = FORBIDDEN, desc = "the waiter returned without both its holds")
    @State
    public static class NumaHandoffLockSignalRacesTimeout extends HandoffRace {
        @Actor
        public void waiter(III_Result r) {
            await(r);
        }

        @Actor
        public void signaller(III_Result r) {
            signal(r);
        }
    }
}
