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
 * or a lock-free baseline: {@code CHM_LONG_ADDER}
 * ({@code ConcurrentHashMap<String, LongAdder>}, computeIfAbsent + increment) or {@code CHM_MERGE}
 * ({@code ConcurrentHashMap.merge}).
 *
 * <pre>{@code
 * ./mvnw -pl benchmarks -am -Pbench verify -DskipTests -Dbench.config=benchmarks/config/text-stats.json
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
     * out; a test (TextStatsBenchmarkTest) checks that every lock type is among them. The runner's
     * {@code "LOCK_TYPES"} stands for every type.
     */
    @Param({
        "NUMA_MCS",
        "NUMA_HANDOFF",
        "NUMA_ADAPTIVE",
        "COMBINING",
        "NUMA_COMBINING",
        "SYNCHRONIZED",
        "FAIR_REENTRANT",
        "UNFAIR_REENTRANT",
        "CHM_LONG_ADDER",
        "CHM_MERGE"
    })
    public String lockType;

    @Param("100000")
    public int lines;

    @Param("64")
    public int threads;

    /** A small stripe count keeps the locks contended, as a hot vocabulary does. */
    @Param("16")
    public int stripes;

    @Param("20000")
    public int vocabulary;

    @Param("10")
    public int meanWordsPerLine;

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
    private WordCounter counter;
    private Thread[] workers;
    private CountDownLatch go;
    private CountDownLatch finished;

    @Setup(Level.Trial)
    public void setUpTrial() {
        nodes = BenchmarkNuma.create(simulatedNodes, pinCarriers, scheduler);
        builders = BenchmarkNuma.spreadOverNodes(nodes);
        text = new ZipfText(vocabulary, 1.0, seed).lines(lines, meanWordsPerLine, seed);
        long words = 0;
        for (String line : text) {
            long[] n = {0};
            ZipfText.forEachWord(line, w -> n[0]++);
            words += n[0];
        }
        expectedWords = words;
        System.out.printf("# text: %d lines, %d words, vocabulary %d, seed %d%n", lines, words, vocabulary, seed);
    }

    @Setup(Level.Invocation)
    public void setUpRound() throws InterruptedException {
        counter = WordCounter.create(lockType, stripes, nodes.locator());
        AtomicInteger cursor = new AtomicInteger();
        CountDownLatch ready = new CountDownLatch(threads);
        go = new CountDownLatch(1);
        finished = new CountDownLatch(threads);
        workers = new Thread[threads];
        WordCounter store = counter;
        for (int t = 0; t < threads; t++) {
            workers[t] = builders.apply(t).name("counter-" + t).start(() -> {
                try {
                    ready.countDown();
                    go.await();
                    for (int i = cursor.getAndIncrement(); i < text.size(); i = cursor.getAndIncrement()) {
                        ZipfText.forEachWord(text.get(i), store::increment);
                    }
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
