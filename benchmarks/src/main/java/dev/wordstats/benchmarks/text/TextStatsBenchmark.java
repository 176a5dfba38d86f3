package dev.wordstats.benchmarks.text;

import dev.wordstats.benchmarks.BenchmarkJvm;
import dev.wordstats.benchmarks.BenchmarkNuma;
import dev.wordstats.numa.setup.NumaSetup;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
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
 * The thesis task: {@code lines} lines of Zipf-distributed words (generated from {@code seed}) are
 * split into words and counted by {@code threads} virtual threads that pull the next line from a
 * shared cursor, as the service's batch endpoint does. One invocation counts every line into a new,
 * empty store; the runner reports lines/s. The store is a {@code StripedCounts<String>} whose stripes
 * are guarded by the {@code lockType} type's guards (every count goes through {@code Guard.call}),
 * or a bound ({@link #BOUNDS}): the lock-free {@code CHM_LONG_ADDER}
 * ({@code ConcurrentHashMap<String, LongAdder>}, computeIfAbsent + increment), {@code CHM_MERGE}
 * ({@code ConcurrentHashMap.merge}) or {@code PER_THREAD_MAPS} (a plain map per thread, merged into
 * one at the end of the round, inside the timing: the bound with nothing shared), or {@code SPIN_BOUND}
 * (the stripes under the cheapest lock, {@link SpinBound}).
 *
 * <p>The regimes of striped counting: {@code stripes}; the vocabulary ({@code vocabulary} words,
 * Zipf {@code exponent}; 0 draws each word alike, e.g. 6 hot words); the line length
 * ({@code wordsPerLine} exactly, or 0 for 1 to 2 x {@code meanWordsPerLine} - 1); and the
 * {@code granularity}: {@code word}, one critical section per word, or {@code line}, the line's words
 * merged into a small map outside the lock and then one critical section per stripe the line touches
 * ({@code StripedCounts.addAll}, as the service counts a request). Splitting is always outside the lock.
 *
 * <pre>{@code
 * ./mvnw -pl benchmarks -am -Pbench verify -DskipTests -Dbench.config=benchmarks/config/text-stats.json
 * benchmarks/run.sh benchmarks/config/regime-matrix.json benchmarks/target/regime-matrix --interleave 3
 * (. .mvn/select-jdk.sh && "$JAVA_HOME/bin/java" -jar benchmarks/target/benchmarks.jar TextStatsBenchmark -p stripes=16)
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(java.util.concurrent.TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, batchSize = 1)
@Measurement(iterations = 10, batchSize = 1)
@Fork(
        value = 2,
        jvmArgsAppend = {
            BenchmarkJvm.ADD_EXPORTS,
            BenchmarkJvm.ADD_OPENS,
            BenchmarkJvm.NATIVE_ACCESS,
            BenchmarkJvm.HEAP,
            BenchmarkJvm.HEAP_MAX
        })
public class TextStatsBenchmark {

    /**
     * A {@link dev.wordstats.numa.lock.LockType} name or a lock-free baseline. JMH needs the values written
     * out; a test (JmhLockListsTest) checks that every lock type is among them. The runner's
     * {@code "LOCK_TYPES"} stands for every type.
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
        "CHM_LONG_ADDER",
        "CHM_MERGE",
        "PER_THREAD_MAPS",
        "SPIN_BOUND"
    })
    public String lockType;

    /**
     * The {@code lockType} values that are not lock types, the bounds beside the locks: the lock-free
     * stores, and {@code SPIN_BOUND}, the stripes under the cheapest lock (an unbounded spin, never a lock
     * to use: see {@link SpinBound}), which says what a lock object apart from the stripe can reach.
     */
    public static final List<String> BOUNDS = List.of("CHM_LONG_ADDER", "CHM_MERGE", "PER_THREAD_MAPS", "SPIN_BOUND");

    @Param("100000")
    public int lines;

    @Param("64")
    public int threads;

    /** A small stripe count keeps the locks contended, as a hot vocabulary does. */
    @Param("16")
    public int stripes;

    @Param("20000")
    public int vocabulary;

    /** Zipf exponent of the vocabulary: 1.0 is close to English, 0 draws every word alike. */
    @Param("1.0")
    public double exponent;

    @Param("10")
    public int meanWordsPerLine;

    /** Exactly this many words a line; 0: 1 to 2 x {@code meanWordsPerLine} - 1 (uniform). */
    @Param("0")
    public int wordsPerLine;

    /**
     * {@code word}: one critical section per word; {@code line}: the line pre-aggregated outside the
     * lock, then one critical section per stripe it touches.
     */
    @Param({"word"})
    public String granularity;

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
    private IntFunction<Thread.Builder.OfVirtual> builders;
    private List<String> text;
    private long expectedWords;
    private boolean perLine;
    private WordCounter counter;
    private Thread[] workers;
    private CountDownLatch go;
    private CountDownLatch finished;

    @Setup(Level.Trial)
    public void setUpTrial() {
        nodes = BenchmarkNuma.create(simulatedNodes, pinCarriers, scheduler);
        builders = BenchmarkNuma.spreadOverNodes(nodes);
        perLine = switch (granularity) {
            case "word" -> false;
            case "line" -> true;
            default -> throw new IllegalArgumentException("granularity must be word or line, was " + granularity);
        };
        ZipfText zipf = new ZipfText(vocabulary, exponent, seed);
        text = wordsPerLine > 0
                ? zipf.linesOfExactly(lines, wordsPerLine, seed)
                : zipf.lines(lines, meanWordsPerLine, seed);
        long words = 0;
        for (String line : text) {
            long[] n = {0};
            ZipfText.forEachWord(line, w -> n[0]++);
            words += n[0];
        }
        expectedWords = words;
        System.out.printf(
                "# text: %d lines, %d words, vocabulary %d (exponent %s), seed %d; one critical section per %s%n",
                lines, words, vocabulary, exponent, seed, granularity);
    }

    @Setup(Level.Invocation)
    public void setUpRound() throws InterruptedException {
        counter = WordCounter.create(lockType, stripes, threads, nodes.locator());
        AtomicInteger cursor = new AtomicInteger();
        CountDownLatch ready = new CountDownLatch(threads);
        go = new CountDownLatch(1);
        finished = new CountDownLatch(threads);
        workers = new Thread[threads];
        boolean line = perLine;
        for (int t = 0; t < threads; t++) {
            WordCounter.Sink sink = counter.sink(t);
            workers[t] = builders.apply(t).name("counter-" + t).start(() -> {
                try {
                    ready.countDown();
                    go.await();
                    WordCounter.countLines(text, cursor, sink, line);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    finished.countDown();
                }
            });
        }
        ready.await();
    }

    @Benchmark
    public void countAllLines() throws InterruptedException {
        go.countDown();
        finished.await();
        counter.finish();
    }

    @TearDown(Level.Invocation)
    public void check() throws InterruptedException {
        for (Thread worker : workers) {
            worker.join();
        }
        if (counter.total() != expectedWords) {
            throw new IllegalStateException("counted " + counter.total() + " words, expected " + expectedWords);
        }
    }

    @TearDown(Level.Trial)
    public void tearDownTrial() {
        nodes.close();
    }
}
