package dev.wordstats.benchmarks.cost;

import dev.wordstats.benchmarks.BenchmarkJvm;
import dev.wordstats.numa.scheduler.NodeSchedulers;
import dev.wordstats.numa.scheduler.Placement;
import dev.wordstats.numa.scheduler.SchedulerMode;
import dev.wordstats.numa.setup.NumaSetup;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What placing a new virtual thread on a node costs, per policy, with two simulated nodes on their
 * own schedulers: {@code chooseNode} is the choice alone ({@code NodeSchedulers.nextNode()}, two
 * callers at once), {@code startAndJoin} a whole thread start, run and join through the placing
 * factory, as the service's Tomcat executor does per request task.
 *
 * <pre>{@code
 * (. .mvn/select-jdk.sh && "$JAVA_HOME/bin/java" -jar benchmarks/target/benchmarks.jar PlacementBenchmark)
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {
            BenchmarkJvm.ADD_EXPORTS,
            BenchmarkJvm.ADD_OPENS,
            BenchmarkJvm.NATIVE_ACCESS,
            BenchmarkJvm.HEAP,
            BenchmarkJvm.HEAP_MAX
        })
public class PlacementBenchmark {

    @Param({"ROUND_ROBIN", "LEAST_LOADED"})
    public Placement placement;

    @Param("2")
    public int simulatedNodes;

    private NumaSetup numa;
    private NodeSchedulers schedulers;
    private ThreadFactory placing;

    @Setup
    public void setUp() {
        numa = NumaSetup.builder()
                .simulatedNodes(simulatedNodes)
                .scheduler(SchedulerMode.PER_NODE)
                .placement(placement)
                .build();
        schedulers = numa.schedulers();
        placing = schedulers.placingFactory("placed-");
        System.out.println("# scheduler: " + numa.schedulerSummary());
    }

    @TearDown
    public void tearDown() {
        numa.close();
    }

    @Benchmark
    @Threads(2)
    public int chooseNode() {
        return schedulers.nextNode();
    }

    @Benchmark
    public void startAndJoin() throws InterruptedException {
        Thread thread = placing.newThread(() -> {});
        thread.start();
        thread.join();
    }
}
