package dev.wordstats.benchmarks.contention;

import dev.wordstats.benchmarks.BenchmarkJvm;
import dev.wordstats.benchmarks.BenchmarkNuma;
import dev.wordstats.benchmarks.CpuTokens;
import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.QueueLockSettings;
import dev.wordstats.numa.lock.probe.JfrLockProbe;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.lock.queue.HandoffMechanism;
import dev.wordstats.numa.lock.queue.NumaHandoffLockLab;
import dev.wordstats.numa.setup.NumaSetup;
import java.time.Duration;
import java.util.Set;
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
 * The thesis harness: {@code actionsCount} lock-protected actions split evenly over {@code threads}
 * virtual threads that start together; one invocation is all actions done, so the score is the time
 * of one round and the runner reports {@code actionsCount / time} as throughput (actions/s).
 *
 * <p>Each action: {@code consumeCPU(beforeCpuTokens)}, {@code yieldsBefore} x {@code Thread.yield()},
 * then a critical section through the type's {@link dev.wordstats.numa.lock.Guard} ({@code guard.run}):
 * {@code consumeCPU(inCpuTokens)} and a {@code Thread.yield()} if {@code yieldInCrit}.
 * Presets (benchmarks/config): high contention ({@code beforeCpuTokens = 0}, about 3 µs inside) and
 * low contention ({@code beforeCpuTokens = 128 x inCpuTokens}). With {@code simulatedNodes > 0} the
 * CPUs are split into that many virtual nodes and {@code remotePenaltyTokens} models a cross-node
 * handoff (see {@link ContentionRound}). The carriers of the virtual-thread scheduler are pinned to
 * CPUs once per trial and the mapping is printed. {@code scheduler} chooses the JDK's scheduler or
 * one per node (threads spread evenly over the nodes and kept there).
 *
 * <p>Secondary results ({@link ContentionMetrics}): wait-time p50/p99/max, Jain's fairness index,
 * cross-node handoff share, the calibrated critical-section length.
 *
 * <p>Run one preset (charts, CSV, JSON):
 * <pre>{@code
 * ./mvnw -pl benchmarks -am -Pbench verify -DskipTests -Dbench.config=benchmarks/config/high-contention.json
 * }</pre>
 * or straight through JMH:
 * <pre>{@code
 * ./mvnw -pl benchmarks -am package -DskipTests
 * (. .mvn/select-jdk.sh && "$JAVA_HOME/bin/java" -jar benchmarks/target/benchmarks.jar LockContentionBenchmark -p threads=64 -p inCpuTokens=1400)
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
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
public class LockContentionBenchmark {

    /** Every lock type (no values listed: JMH takes all constants of the enum). */
    @Param
    public LockType lockType;

    @Param("100000")
    public int actionsCount;

    @Param("64")
    public int threads;

    @Param("0")
    public int beforeCpuTokens;

    /** About 3 µs on the machine of benchmarks/README.md (see the calibration there). */
    @Param("1400")
    public int inCpuTokens;

    @Param("0")
    public int yieldsBefore;

    @Param("false")
    public boolean yieldInCrit;

    /** 0 = the real topology; N = the allowed CPUs split into N virtual nodes. */
    @Param("0")
    public int simulatedNodes;

    @Param("0")
    public int remotePenaltyTokens;

    @Param("true")
    public boolean pinCarriers;

    /**
     * {@code default}: the JDK's scheduler; {@code per-node}: one scheduler per node, carriers pinned
     * to the node's CPUs, thread i started on node {@code i mod nodes} and kept there.
     */
    @Param("default")
    public String scheduler;

    /**
     * Time each acquisition (two {@code nanoTime} reads, one of them inside the critical section): false
     * for throughput figures, where the read inside would lengthen the critical section.
     */
    @Param("true")
    public boolean recordWaits;

    /** NUMA_MCS, NUMA_HANDOFF: how long a queue leader waits before it reserves the lock (QueueLockSettings). */
    @Param("1000")
    public long reserveAfterMicros;

    /**
     * NUMA_HANDOFF only: the {@link HandoffMechanism}s switched off, comma-separated ({@code none}, or e.g.
     * {@code WAKE_AHEAD}, {@code IN_NODE_PASS,ONE_AWAKE_WAITER}), to measure each one in and out. With any
     * switched off the round runs a {@link NumaHandoffLockLab} (numa-locks-lab); with none, the
     * production lock.
     */
    @Param("none")
    public String handoffWithout;

    /**
     * Build each lock with the JFR probe a library user's lock gets by default ({@code JfrLockProbe}, which
     * hears only acquisitions that waited) instead of none: {@code -p jfrProbe=false,true} is the cost of the
     * lock events compiled in, with no recording running; add {@code -jvmArgsAppend
     * -XX:StartFlightRecording:settings=...wordstats-locks.jfc} for the cost with recording on.
     */
    @Param("false")
    public boolean jfrProbe;

    /**
     * {@code true}: every invocation gets a new lock, so each round starts from a cold lock meeting a
     * sudden saturation (an adaptive lock starts lean); {@code false}: one lock for the trial, so the
     * measured rounds see the lock as a long-running service does, in the state the earlier rounds
     * left it.
     */
    @Param("true")
    public boolean newLockEachInvocation;

    private NumaSetup nodes;
    private LockSettings settings;
    private LockContext context;
    private Set<HandoffMechanism> handoffMechanisms;
    private double csNanos;
    private ContentionRound round;
    private Guard guardInUse; // the lock of the current invocation (the trial's, without newLockEachInvocation)

    @Setup(Level.Trial)
    public void setUpTrial() {
        nodes = BenchmarkNuma.create(simulatedNodes, pinCarriers, scheduler);
        settings = LockSettings.DEFAULTS.with(
                new QueueLockSettings(Duration.ofNanos(TimeUnit.MICROSECONDS.toNanos(reserveAfterMicros))));
        context = new LockContext(nodes.locator(), CarrierPinning.schedulerParallelism());
        handoffMechanisms = HandoffMechanism.allExcept(handoffWithout);
        csNanos = CpuTokens.nanosFor(inCpuTokens, 300);
        System.out.printf("# critical section: %d tokens = %.0f ns on one thread%n", inCpuTokens, csNanos);
    }

    @Setup(Level.Invocation)
    public void setUpRound() throws InterruptedException {
        if (newLockEachInvocation || guardInUse == null) {
            guardInUse = guard();
        }
        round = new ContentionRound(
                guardInUse,
                nodes.locator(),
                actionsCount,
                threads,
                beforeCpuTokens,
                inCpuTokens,
                yieldsBefore,
                yieldInCrit,
                remotePenaltyTokens,
                recordWaits,
                BenchmarkNuma.spreadOverNodes(nodes));
        round.start();
    }

    /** The lock of the current invocation (set by {@link #setUpRound}); for tests. */
    Guard guardInUse() {
        return guardInUse;
    }

    /** A new guard of {@code lockType}; a lab lock when some handoff mechanisms are switched off. */
    private Guard guard() {
        if (lockType == LockType.NUMA_HANDOFF && !handoffMechanisms.equals(HandoffMechanism.all())) {
            return new NumaHandoffLockLab(
                            nodes.locator(), settings.queue().reserveAfter(), context.carriers(), handoffMechanisms)
                    .guard();
        }
        return lockType.create(
                context, settings, jfrProbe ? new JfrLockProbe(lockType, context.nodes()) : LockProbe.NONE);
    }

    /** One round; the histogram merge in {@code report} is inside the timing and costs well under 1%. */
    @Benchmark
    public void actions(ContentionMetrics metrics) throws InterruptedException {
        round.run();
        round.report(metrics);
        metrics.csNanos = csNanos;
    }

    @TearDown(Level.Invocation)
    public void tearDownRound() throws InterruptedException {
        round.join();
        if (round.actionsDone() != actionsCount) {
            throw new IllegalStateException("did " + round.actionsDone() + " actions, expected " + actionsCount);
        }
    }

    @TearDown(Level.Trial)
    public void tearDownTrial() {
        nodes.close();
    }
}
