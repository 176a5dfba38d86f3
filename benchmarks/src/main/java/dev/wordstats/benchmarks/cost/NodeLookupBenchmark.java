package dev.wordstats.benchmarks.cost;

import dev.wordstats.benchmarks.BenchmarkJvm;
import dev.wordstats.numa.carrier.CarrierNodeLocator;
import dev.wordstats.numa.os.LinuxNative;
import dev.wordstats.numa.scheduler.SchedulerMode;
import dev.wordstats.numa.setup.NumaSetup;
import dev.wordstats.numa.topology.NodeLocator;
import dev.wordstats.numa.topology.Topology;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What a lock pays to learn its node: {@code CarrierNodeLocator.currentNode()} (cached per carrier,
 * refreshed every 1024 lookups) against a native {@code getcpu} through JNA on every call. The
 * topology is split into {@code simulatedNodes} (default 2) so the cache path runs on a one-node
 * host too (with one node the locator answers 0 without looking). {@code cachedOnVirtualThread}
 * does {@value #BATCH} lookups inside one virtual thread (the case the cache is built for); the
 * start and join of that thread are spread over the batch. {@code schedulerOnNodeAffineVirtualThread}
 * does the same on a thread of a per-node scheduler, whose lookup reads the carrier's node.
 *
 * <pre>{@code
 * ./mvnw -pl benchmarks -am -Pbench verify -DskipTests -Dbench.config=benchmarks/config/uncontended.json
 * (. .mvn/select-jdk.sh && "$JAVA_HOME/bin/java" -jar benchmarks/target/benchmarks.jar NodeLookupBenchmark)
 * }</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 2,
        jvmArgsAppend = {
            BenchmarkJvm.ADD_EXPORTS,
            BenchmarkJvm.ADD_OPENS,
            BenchmarkJvm.NATIVE_ACCESS,
            BenchmarkJvm.HEAP,
            BenchmarkJvm.HEAP_MAX
        })
public class NodeLookupBenchmark {

    static final int BATCH = 10_000;

    @Param("2")
    public int simulatedNodes;

    private CarrierNodeLocator locator;
    private NumaSetup perNode;
    private NodeLocator perNodeLocator;

    @Setup
    public void setUp() {
        Topology topology = Topology.detect();
        if (simulatedNodes > 1) {
            topology = topology.withSimulatedNodes(simulatedNodes);
        }
        locator = CarrierNodeLocator.create(topology);
        System.out.println("# " + locator + ", native available: " + LinuxNative.available());
        perNode = NumaSetup.builder()
                .topology(topology)
                .scheduler(SchedulerMode.PER_NODE)
                .build();
        perNodeLocator = perNode.locator();
        System.out.println("# scheduler: " + perNode.schedulerSummary() + ", locator " + perNodeLocator);
    }

    @TearDown
    public void tearDown() {
        perNode.close();
    }

    @Benchmark
    public int cachedOnPlatformThread() {
        return locator.currentNode();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void cachedOnVirtualThread(Blackhole blackhole) throws InterruptedException {
        Thread.ofVirtual()
                .start(() -> {
                    for (int i = 0; i < BATCH; i++) {
                        blackhole.consume(locator.currentNode());
                    }
                })
                .join();
    }

    /**
     * {@value #BATCH} lookups inside a virtual thread started on the last node's own scheduler: the
     * answer comes from the carrier thread (per-node mode; the carrier cache when it fell back).
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void schedulerOnNodeAffineVirtualThread(Blackhole blackhole) throws InterruptedException {
        perNode.schedulers()
                .builder(perNode.schedulers().nodeCount() - 1)
                .start(() -> {
                    for (int i = 0; i < BATCH; i++) {
                        blackhole.consume(perNodeLocator.currentNode());
                    }
                })
                .join();
    }

    @Benchmark
    public int nativeGetcpu() {
        return LinuxNative.currentCpu();
    }
}
