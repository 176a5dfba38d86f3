package dev.wordstats.concurrency;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A signal racing a timed await's timeout on a Condition of {@link LockType#NUMA_RW}'s write lock, as
 * {@link ConditionSignalRacesTimeoutTests} races one on the queue locks. The waiter takes the write lock
 * twice, notes its deadline and awaits with a short bound; the signaller takes the write lock again and
 * again until it sees the waiter waiting (it then signals and reads the clock) or done, then takes the
 * read lock again and again until it sees the waiter done, checking each time that the waiter is not
 * between its return from the await and its last unlock (where it holds the write lock, so no reader
 * can be inside). The waiter gives up one hold first and stays marked inside: an await that restored
 * only one hold would let the reader in there (and make the waiter's second unlock throw). The result
 * triple is (1 if the await returned signalled, 0 if it timed out; 1 if no read hold overlapped the
 * waiter's write hold after the await, else 0; what the signaller saw: 0 the waiter already done, 1 a
 * waiter it signalled at or past its deadline, 2 one it signalled before the deadline). (0, 1, 2) is a
 * lost signal. Run with {@code java -jar concurrency-tests/target/jcstress.jar -t RwConditionSignalRacesTimeout}.
 */
public final class RwConditionSignalRacesTimeoutTests {

    private RwConditionSignalRacesTimeoutTests() {}

    /** NUMA_RW's write lock: a signal racing the timeout of a timed await, then readers against its holder. */
    @JCStressTest
    @Description("a signal racing a timed await's timeout on a NUMA_RW write-lock condition")
    @Outcome(
            id = "0, 1, 0",
            expect = ACCEPTABLE,
            desc = "the signaller never saw the waiter waiting: the await timed out")
    @Outcome(
            id = "1, 1, [12]",
            expect = ACCEPTABLE,
            desc = "signal delivered, the waiter holds the write lock again, apart from readers")
    @Outcome(
            id = "0, 1, 1",
            expect = ACCEPTABLE_INTERESTING,
            desc = "the waiter's deadline passed before the signal: it timed out, the signal found nobody")
    @Outcome(id = "0, 1, 2", expect = FORBIDDEN, desc = "lost signal: signalled before the deadline, yet timed out")
    @Outcome(id = "1, 1, 0", expect = FORBIDDEN, desc = "the await returned signalled with no signal")
    @Outcome(
            id = "[01], 0, .*",
            expect = FORBIDDEN,
            desc = "a reader got in while the waiter held the write lock after its await")
    @State
    public static class NumaRwWriteConditionSignalRacesTimeout {
        private final ReadWriteLock rw = (ReadWriteLock) LockType.NUMA_RW.create(
                new LockContext(NodeLocator.singleNode(), CarrierPinning.schedulerParallelism()),
                LockSettings.DEFAULTS,
                LockProbe.NONE);
        private final Lock write = rw.writeLock();
        private final Lock read = rw.readLock();
        private final Condition condition = write.newCondition();
        private boolean waiting; // guarded by the write lock
        private boolean inside; // written under the write lock, read under the read lock
        private boolean done; // as inside: the waiter has returned from its await
        private long deadline; // guarded by the write lock

        @Actor
        public void waiter(III_Result r) {
            write.lock();
            write.lock();
            boolean signalled;
            try {
                deadline = System.nanoTime() + ConditionSignalRacesTimeoutTests.BOUND_NANOS;
                waiting = true;
                try {
                    signalled = condition.await(ConditionSignalRacesTimeoutTests.BOUND_NANOS, TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    throw new AssertionError("nobody interrupts the waiter", e);
                }
                waiting = false;
                inside = true;
            } finally {
                write.unlock();
            }
            try {
                r.r1 = signalled ? 1 : 0;
                Thread.onSpinWait(); // still one hold: a reader that gets in now sees inside
                inside = false;
                done = true;
            } finally {
                write.unlock();
            }
        }

        @Actor
        public void signaller(III_Result r) {
            r.r3 = signal();
            boolean overlapped = false;
            for (int tries = 1; ; tries++) {
                read.lock();
                try {
                    overlapped |= inside;
                    if (done) {
                        break;
                    }
                } finally {
                    read.unlock();
                }
                if ((tries & 63) == 0) {
                    Thread.yield(); // let a waiter that shares this CPU take the lock
                } else {
                    Thread.onSpinWait();
                }
            }
            r.r2 = overlapped ? 0 : 1;
        }

        /** Takes the write lock until it sees the waiter waiting (then signals it) or done. */
        private int signal() {
            for (int tries = 1; ; tries++) {
                write.lock();
                try {
                    if (waiting) {
                        condition.signal();
                        return System.nanoTime() - deadline < 0L ? 2 : 1;
                    }
                    if (done) {
                        return 0;
                    }
                } finally {
                    write.unlock();
                }
                if ((tries & 63) == 0) {
                    Thread.yield();
                } else {
                    Thread.onSpinWait();
                }
            }
        }
    }
}
