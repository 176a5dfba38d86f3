package dev.wordstats.concurrency;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.lock.CombiningSettings;
import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.LockProbe;
import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.MonitorLockSettings;
import dev.wordstats.numa.lock.QueueLockSettings;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * {@link LockType#NUMA_RW}: a writer racing readers' announcements on two simulated nodes. "Eager"
 * guards close the door to readers at once (a zero bound), so every writer takes the closing path; the
 * default ones let readers in while the writer drains. A lost wake-up of a writer or a reader shows as a
 * test that does not finish. Run with {@code java -jar concurrency-tests/target/jcstress.jar -t NumaRwLock}.
 */
public final class NumaRwLockTests {

    private NumaRwLockTests() {}

    static Guard guard(Duration drainAfter) {
        LockSettings settings = new LockSettings(
                new QueueLockSettings(drainAfter), CombiningSettings.DEFAULTS, MonitorLockSettings.DEFAULTS);
        return LockType.NUMA_RW.create(
                new LockContext(ActorNodes.TWO_NODES, CarrierPinning.schedulerParallelism()), settings, LockProbe.NONE);
    }

    /** Two fields a write section sets in two steps, read by two readers of different nodes. */
    abstract static class TornRead {
        final Guard guard;
        int first; // plain: only the guard orders these
        int second;

        TornRead(Guard guard) {
            this.guard = guard;
        }

        void write() {
            ActorNodes.runOn(0);
            guard.run(() -> {
                first = 1;
                second = 1;
            });
        }

        void read(int node, int[] into) {
            ActorNodes.runOn(node);
            guard.read(() -> {
                into[0] = first;
                into[1] = second;
                return null;
            });
        }
    }

    /** The door closes at once: a reader's announcement races the writer's close and scan. */
    @JCStressTest
    @Description("a writer (node 0) and two readers (nodes 0 and 1); the writer closes the door at once")
    @Outcome(id = "(0, 0|1, 1), (0, 0|1, 1)", expect = ACCEPTABLE, desc = "each reader saw none or all of the write")
    @Outcome(expect = FORBIDDEN, desc = "a reader saw half a write: a reader and the writer were both inside")
    @State
    public static class WriterRacesReaderEager extends TornRead {
        private final int[] a = new int[2];
        private final int[] b = new int[2];

        public WriterRacesReaderEager() {
            super(guard(Duration.ZERO));
        }

        @Actor
        public void writer() {
            write();
        }

        @Actor
        public void reader0() {
            read(0, a);
        }

        @Actor
        public void reader1() {
            read(1, b);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r1 = a[0];
            r.r2 = a[1];
            r.r3 = b[0];
            r.r4 = b[1];
        }
    }

    /** The default bound: readers may still enter while the writer drains. */
    @JCStressTest
    @Description("a writer (node 0) and two readers (nodes 0 and 1), default settings")
    @Outcome(id = "(0, 0|1, 1), (0, 0|1, 1)", expect = ACCEPTABLE, desc = "each reader saw none or all of the write")
    @Outcome(expect = FORBIDDEN, desc = "a reader saw half a write: a reader and the writer were both inside")
    @State
    public static class WriterRacesReaderDefault extends TornRead {
        private final int[] a = new int[2];
        private final int[] b = new int[2];

        public WriterRacesReaderDefault() {
            super(guard(QueueLockSettings.DEFAULTS.reserveAfter()));
        }

        @Actor
        public void writer() {
            write();
        }

        @Actor
        public void reader0() {
            read(0, a);
        }

        @Actor
        public void reader1() {
            read(1, b);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r1 = a[0];
            r.r2 = a[1];
            r.r3 = b[0];
            r.r4 = b[1];
        }
    }

    /**
     * Two writers and a reader, each twice: a reader that leaves must wake a writer parked for it, and a
     * writer that opens the door must wake a reader parked behind it (else the test does not finish).
     */
    @JCStressTest
    @Description("two writers (nodes 0 and 1) and a reader, two sections each; the door closes at once")
    @Outcome(id = "4, 1, 1", expect = ACCEPTABLE, desc = "every write counted, the reader finished both reads")
    @Outcome(expect = FORBIDDEN, desc = "a lost write or a read section that did not run")
    @State
    public static class NoLostWakeUp {
        private final Guard guard = guard(Duration.ZERO);
        private int writes; // plain: only the guard orders it
        private int reads; // written by the reader only
        private int sane = 1; // cleared by the reader if it saw the count go down

        private void writeTwice(int node) {
            ActorNodes.runOn(node);
            for (int i = 0; i < 2; i++) {
                guard.run(() -> writes++);
            }
        }

        @Actor
        public void writer0() {
            writeTwice(0);
        }

        @Actor
        public void writer1() {
            writeTwice(1);
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
}
