package dev.wordstats.benchmarks.readwrite;

import dev.wordstats.benchmarks.BenchmarkJvm;
import dev.wordstats.benchmarks.BenchmarkNuma;
import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.setup.NumaSetup;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Readers and writers of striped word counts: {@code threads} virtual threads, {@code readShare} percent
 * of them readers, the others writers, do {@code operations} operations between them (an equal share
 * each, see {@link ReadWriteRound}) on {@code stripes} maps holding {@code vocabulary} words. A write adds one to
 * a word in a write section ({@code Guard.write}); a read is a read section ({@code Guard.read}): with
 * {@code reads=word} a short read, one word looked up (as the service's lookup), with {@code reads=stripe}
 * a copy of the word's whole stripe (as the service's top list and snapshot read each stripe). An
 * exclusive lock type runs both as its exclusive sections; the reader-writer types let reads overlap.
 * Every guard is bare (no probe). Beside the lock types, the bound {@code COPY_ON_WRITE}: writers copy
 * their stripe under the stripe's one lock and publish the copy, readers read the published map with no
 * lock.
 *
 * <p>The primary score is the time of one invocation (the runner reports operations/s); the secondary
 * results ({@link ReadWriteMetrics}) give reads/s and writes/s apart, each over the time its role took,
 * and the writers' longest waits (p99, max). Every invocation starts from fresh maps and checks that the reads
 * and writes add up to {@code operations} and the counts to the writes.
 *
 * <pre>{@code
 * benchmarks/run.sh benchmarks/config/read-write.json benchmarks/target/read-write
 * (. .mvn/select-jdk.sh && "$JAVA_HOME/bin/java" -jar benchmarks/target/benchmarks.jar ReadWriteBenchmark \
 *     -p readShare=90 -p stripes=1 -p reads=stripe -p lockType=NUMA_RW,UNFAIR_REENTRANT)
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, batchSize = 1)
@Measurement(iterations = 10, batchSize = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {
            BenchmarkJvm.ADD_EXPORTS,
            BenchmarkJvm.ADD_OPENS,
            BenchmarkJvm.NATIVE_ACCESS,
            BenchmarkJvm.HEAP,
            BenchmarkJvm.HEAP_MAX
        })
public class ReadWriteBenchmark {

    /**
     * A {@link LockType} name or a bound ({@link #BOUNDS}). JMH needs the values written out; a test
     * (JmhLockListsTest) checks that every lock type is among them.
     */
    @Param({
        "NUMA_MCS",
        "NUMA_HANDOFF",
        "NUMA_MONITOR",
        "COMBINING",
        "NUMA_COMBINING",
        "SYNCHRONIZED",
        "FAIR_REENTRANT",
        "UNFAIR_REENTRANT",
        "FAIR_REENTRANT_RW",
        "UNFAIR_REENTRANT_RW",
        "STAMPED",
        "NUMA_RW",
        "COPY_ON_WRITE"
    })
    public String lockType;

    /** The {@code lockType} values that are not lock types: the copy-on-write bound for reads. */
    public static final List<String> BOUNDS = List.of(Stripes.COPY_ON_WRITE);

    /** Operations (reads and writes together) one invocation does, at least one a thread. */
    @Param("100000")
    public int operations;

    @Param("64")
    public int threads;

    /** Percent of the threads that read (at least one reader and one writer). */
    @Param({"50", "90", "99"})
    public int readShare;

    @Param({"1", "64"})
    public int stripes;

    /** {@code word}: a read looks one word up; {@code stripe}: a read copies the word's whole stripe. */
    @Param({"word", "stripe"})
    public String reads;

    /** Words in the maps, spread over the stripes (word {@code w} in stripe {@code w mod stripes}). */
    @Param("1000")
    public int vocabulary;

    @Param("42")
    public long seed;

    @Param("0")
    public int simulatedNodes;

    @Param("true")
    public boolean pinCarriers;

    /** {@code default}: the JDK's scheduler; {@code per-node}: one per node, worker t on node {@code t mod nodes}. */
    @Param("default")
    public String scheduler;

    private NumaSetup nodes;
    private LockContext context;
    private LockType type; // null for the bound
    private String[] words;
    private boolean wholeStripeReads;
    private Stripes store;
    private ReadWriteRound round;

    @Setup(Level.Trial)
    public void setUpTrial() {
        wholeStripeReads = switch (reads) {
            case "word" -> false;
            case "stripe" -> true;
            default -> throw new IllegalArgumentException("reads must be word or stripe, was " + reads);
        };
        type = BOUNDS.contains(lockType) ? null : LockType.parse(lockType);
        nodes = BenchmarkNuma.create(simulatedNodes, pinCarriers, scheduler);
        context = new LockContext(nodes.locator(), CarrierPinning.schedulerParallelism());
        words = new String[vocabulary];
        for (int w = 0; w < vocabulary; w++) {
            words[w] = "word" + w;
        }
        int readers = ReadWriteRound.readersFor(threads, readShare);
        System.out.printf(
                "# read/write: %d readers, %d writers, %d stripes of %d words, reads: %s%n",
                readers, threads - readers, stripes, vocabulary, reads);
    }

    @Setup(Level.Invocation)
    public void setUpRound() throws InterruptedException {
        store = type == null
                ? new Stripes.CopyOnWrite(words, stripes)
                : new Stripes.Guarded(words, stripes, s -> type.create(context, LockSettings.DEFAULTS, LockProbe.NONE));
        round = new ReadWriteRound(
                store,
                operations,
                threads,
                ReadWriteRound.readersFor(threads, readShare),
                wholeStripeReads,
                seed,
                BenchmarkNuma.spreadOverNodes(nodes));
        round.start();
    }

    @Benchmark
    public void readAndWrite(ReadWriteMetrics metrics) throws InterruptedException {
        round.run();
        round.report(metrics);
    }

    @TearDown(Level.Invocation)
    public void check() {
        long reads = round.reads();
        long writes = round.writes();
        if (reads + writes != operations) {
            throw new IllegalStateException(
                    "did " + reads + " reads and " + writes + " writes, expected " + operations + " operations");
        }
        long total = store.total();
        if (total != vocabulary + writes) {
            throw new IllegalStateException(
                    "counts add up to " + total + ", expected " + vocabulary + " + " + writes + " writes");
        }
    }

    @TearDown(Level.Trial)
    public void tearDownTrial() {
        nodes.close();
    }
}
