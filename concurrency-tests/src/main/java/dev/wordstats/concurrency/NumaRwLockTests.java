package dev.wordstats.concurrency;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.lock.CombiningSettings;
import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.MonitorLockSettings;
import dev.wordstats.numa.lock.QueueLockSettings;
import dev.wordstats.numa.lock.probe.LockProbe;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReadWriteLock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@link LockType#NUMA_RW}: a writer racing a reader's announcement, and a writer racing a release, each
 * with two actors (the machines that run the jcstress pass have two CPUs: three actors could not all run
 * at once). "Eager" guards close the door to readers at once (a zero bound), so every writer takes the
 * closing path; the default ones let readers in while the writer drains. The reader is on the writer's
 * node ({@code SameNode}: both announce on one indicator line) or on the other one ({@code CrossNode}: the
 * writer's scan must see the other node's line). A lost wake-up of a writer or a reader shows as a test
 * that does not finish. Run with {@code java -jar concurrency-tests/target/jcstress.jar -t NumaRwLock}.
 */
public final class NumaRwLockTests {

    private NumaRwLockTests() {}

    static Guard guard(Duration drainAfter) {
        LockSettings settings = new LockSettings(
                new QueueLockSettings(drainAfter), CombiningSettings.DEFAULTS, MonitorLockSettings.DEFAULTS);
        return LockType.NUMA_RW.create(
                new LockContext(ActorNodes.TWO_NODES, CarrierPinning.schedulerParallelism()), settings, LockProbe.NONE);
    }

    /**
     * Two fields a write section (writer on node 0) sets in two steps, read by one reader: a reader and
     * the writer both inside show as a read of half the write.
     */
    abstract static class TornRead {
        final Guard guard;
        final int readerNode;
        int first; // plain: only the guard orders these
        int second;
        private int seenFirst; // written by the reader, read by the arbiter
        private int seenSecond;

        // jcstress finds the @Actor and @Arbiter methods on the test class itself: each declares them.
        TornRead(Guard guard, int readerNode) {
            this.guard = guard;
            this.readerNode = readerNode;
        }

        void write() {
            ActorNodes.runOn(0);
            guard.write(() -> {
                first = 1;
                second = 1;
                return null;
            });
        }

        void read() {
            ActorNodes.runOn(readerNode);
            guard.read(() -> {
                seenFirst = first;
                seenSecond = second;
                return null;
            });
        }

        void seen(II_Result r) {
            r.r1 = seenFirst;
            r.r2 = seenSecond;
        }
    }

    /** The door closes at once; the reader on the writer's node. */
    @JCStressTest
    @Description("a writer and a reader, both on node 0; the writer closes the door at once")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the reader ran before the write")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the reader ran after the write and saw all of it")
    @Outcome(expect = FORBIDDEN, desc = "the reader saw half a write: the reader and the writer were both inside")
    @State
    public static class WriterRacesReaderEagerSameNode extends TornRead {
        public WriterRacesReaderEagerSameNode() {
            super(guard(Duration.ZERO), 0);
        }

        @Actor
        public void writer() {
            write();
        }

        @Actor
        public void reader() {
            read();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            seen(r);
        }
    }

    /** The door closes at once; the reader on the other node. */
    @JCStressTest
    @Description("a writer (node 0) and a reader (node 1); the writer closes the door at once")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the reader ran before the write")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the reader ran after the write and saw all of it")
    @Outcome(expect = FORBIDDEN, desc = "the reader saw half a write: the reader and the writer were both inside")
    @State
    public static class WriterRacesReaderEagerCrossNode extends TornRead {
        public WriterRacesReaderEagerCrossNode() {
            super(guard(Duration.ZERO), 1);
        }

        @Actor
        public void writer() {
            write();
        }

        @Actor
        public void reader() {
            read();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            seen(r);
        }
    }

    /** The default bound: the reader may still enter while the writer drains; on the writer's node. */
    @JCStressTest
    @Description("a writer and a reader, both on node 0, default settings")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the reader ran before the write")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the reader ran after the write and saw all of it")
    @Outcome(expect = FORBIDDEN, desc = "the reader saw half a write: the reader and the writer were both inside")
    @State
    public static class WriterRacesReaderDefaultSameNode extends TornRead {
        public WriterRacesReaderDefaultSameNode() {
            super(guard(QueueLockSettings.DEFAULTS.reserveAfter()), 0);
        }

        @Actor
        public void writer() {
            write();
        }

        @Actor
        public void reader() {
            read();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            seen(r);
        }
    }

    /** The default bound; the reader on the other node. */
    @JCStressTest
    @Description("a writer (node 0) and a reader (node 1), default settings")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the reader ran before the write")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the reader ran after the write and saw all of it")
    @Outcome(expect = FORBIDDEN, desc = "the reader saw half a write: the reader and the writer were both inside")
    @State
    public static class WriterRacesReaderDefaultCrossNode extends TornRead {
        public WriterRacesReaderDefaultCrossNode() {
            super(guard(QueueLockSettings.DEFAULTS.reserveAfter()), 1);
        }

        @Actor
        public void writer() {
            write();
        }

        @Actor
        public void reader() {
            read();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            seen(r);
        }
    }

    /**
     * A writer (node 0) and a reader (node 1), two sections each: a reader that leaves must wake the
     * writer parked for it to drain, and a writer that opens the door must wake the reader parked behind it
     * (else the test does not finish).
     */
    @JCStressTest
    @Description("a writer (node 0) and a reader (node 1), two sections each; the door closes at once")
    @Outcome(id = "2, 1, 1", expect = ACCEPTABLE, desc = "both writes counted, the reader finished both reads")
    @Outcome(expect = FORBIDDEN, desc = "a lost write, a read section that did not run, or a count that went down")
    @State
    public static class NoLostWakeUp {
        private final Guard guard = guard(Duration.ZERO);
        private int writes; // plain: only the guard orders it
        private int reads; // written by the reader only
        private int sane = 1; // cleared by the reader if it saw the count go down

        @Actor
        public void writer() {
            ActorNodes.runOn(0);
            for (int i = 0; i < 2; i++) {
                guard.write(() -> writes++);
            }
        }

        @Actor
        public void reader() {
            ActorNodes.runOn(1);
            int last = 0;
            for (int i = 0; i < 2; i++) {
                int seen = guard.read(() -> writes);
                if (seen < last) {
                    sane = 0;
                }
                last = seen;
                reads++;
            }
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = writes;
            r.r2 = reads == 2 ? 1 : 0;
            r.r3 = sane;
        }
    }

    /**
     * Two actors on two nodes that each write, read and write again: a writer waits in the writers' queue
     * for the other's release as well as for the other's read to drain, and a reader waits for the other's
     * write (else the test does not finish).
     */
    @JCStressTest
    @Description("two actors (nodes 0 and 1), each a write, a read and a write; the door closes at once")
    @Outcome(id = "4, 1", expect = ACCEPTABLE, desc = "every write counted, each read saw at least its own write")
    @Outcome(expect = FORBIDDEN, desc = "a lost write, or a read that missed its actor's own write")
    @State
    public static class NoLostWakeUpWritersAndReaders {
        private final Guard guard = guard(Duration.ZERO);
        private int writes; // plain: only the guard orders it
        private int sane0 = 1; // cleared by actor 0 if its read missed its own write
        private int sane1 = 1; // cleared by actor 1 likewise

        private boolean writeReadWrite(int node) {
            ActorNodes.runOn(node);
            guard.write(() -> writes++);
            int seen = guard.read(() -> writes);
            guard.write(() -> writes++);
            return seen >= 1;
        }

        @Actor
        public void actor0() {
            if (!writeReadWrite(0)) {
                sane0 = 0;
            }
        }

        @Actor
        public void actor1() {
            if (!writeReadWrite(1)) {
                sane1 = 0;
            }
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = writes;
            r.r2 = sane0 & sane1;
        }
    }

    /**
     * A writer that gives up in the writers' queue (a timed {@code tryLock} of the write lock that times out
     * behind the other actor's write) must not leave its bound behind: with the door open and no writer
     * queued any more, a bound left set would keep every later reader out (the test would not finish).
     */
    @JCStressTest
    @Description("a write then a read (node 0) against a timed write tryLock then a read (node 1); zero bound")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the tryLock gave up; both reads ran")
    @Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "the tryLock got the write lock; both reads ran")
    @Outcome(expect = FORBIDDEN, desc = "a lost write, or a read that did not run")
    @State
    public static class GivingUpWriterLeavesNoBound {
        private final Guard guard = guard(Duration.ZERO);
        private int writes; // plain: only the guard orders it
        private int reads0; // written by actor 0 only
        private int reads1; // written by actor 1 only

        @Actor
        public void actor0() {
            ActorNodes.runOn(0);
            guard.write(() -> writes++);
            reads0 = guard.read(() -> 1);
        }

        @Actor
        public void actor1() {
            ActorNodes.runOn(1);
            ReadWriteLock rw = (ReadWriteLock) guard;
            boolean locked;
            try {
                locked = rw.writeLock().tryLock(1, TimeUnit.MICROSECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException("nobody interrupts the actors", e);
            }
            if (locked) {
                try {
                    writes++;
                } finally {
                    rw.writeLock().unlock();
                }
            }
            reads1 = guard.read(() -> 1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = writes;
            r.r2 = reads0 & reads1;
        }
    }
}
