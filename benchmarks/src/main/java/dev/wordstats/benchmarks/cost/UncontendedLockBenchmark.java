package dev.wordstats.benchmarks.cost;

import dev.wordstats.benchmarks.BenchmarkJvm;
import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.LockGuard;
import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.probe.CountingProbe;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of a lock nobody else wants, on one thread, per lock type:
 * <ul>
 *   <li>{@code call}: one {@link Guard#call} with a critical section that returns a constant, for
 *       every type ({@link Guards}); {@code callObserved}: the same on a guard built with a
 *       {@link CountingProbe} without timing, the price of the service's lock metrics;
 *   <li>{@code lockUnlock}: {@code lock(); unlock();} for the types that are {@link Lock}s
 *       ({@link Locks}); {@code lockUnlockObserved}: the same on the lock of a probed guard.
 * </ul>
 * The two states carry their own {@code lockType} parameter: every type for the calls, only the
 * {@code Lock} types for lock+unlock (a monitor or a delegating lock has no lock() to call). The
 * locator is the single-node one: the uncontended path must not ask for a node.
 *
 * <pre>{@code
 * ./mvnw -pl benchmarks -am -Pbench verify -DskipTests -Dbench.config=benchmarks/config/uncontended.json
 * (. .mvn/select-jdk.sh && "$JAVA_HOME/bin/java" -jar benchmarks/target/benchmarks.jar UncontendedLockBenchmark)
 * }</pre>
 */
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
public class UncontendedLockBenchmark {

    /** The critical section of {@code call}: non-capturing, so no allocation per call. */
    private static final Supplier<Integer> SECTION = () -> 42;

    /** One node: the uncontended path must not ask for a node. */
    private static final LockContext CONTEXT =
            new LockContext(NodeLocator.singleNode(), CarrierPinning.schedulerParallelism());

    /** Every lock type's guards (no values listed: JMH takes all constants of the enum). */
    @State(Scope.Thread)
    public static class Guards {
        @Param
        public LockType lockType;

        Guard guard;
        Guard observed;

        @Setup
        public void setUp() {
            guard = lockType.create(CONTEXT);
            observed = lockType.create(CONTEXT, LockSettings.DEFAULTS, new CountingProbe(CONTEXT.nodes()));
        }
    }

    /**
     * The locks of the types that are {@link Lock}s. JMH needs the values written out here; a test
     * (UncontendedLockBenchmarkTest) checks they are exactly the types whose {@code isLock()} is true.
     */
    @State(Scope.Thread)
    public static class Locks {
        @Param({"NUMA_MCS", "NUMA_HANDOFF", "FAIR_REENTRANT", "UNFAIR_REENTRANT"})
        public LockType lockType;

        Lock lock;
        Lock observed;

        @Setup
        public void setUp() {
            lock = ((LockGuard) lockType.create(CONTEXT)).lock();
            observed = ((LockGuard) lockType.create(CONTEXT, LockSettings.DEFAULTS, new CountingProbe(CONTEXT.nodes())))
                    .lock();
        }
    }

    @Benchmark
    public Integer call(Guards state) {
        return state.guard.call(SECTION);
    }

    @Benchmark
    public Integer callObserved(Guards state) {
        return state.observed.call(SECTION);
    }

    @Benchmark
    public void lockUnlock(Locks state) {
        state.lock.lock();
        state.lock.unlock();
    }

    @Benchmark
    public void lockUnlockObserved(Locks state) {
        state.observed.lock();
        state.observed.unlock();
    }
}
