package dev.wordstats.benchmarks.cost;

import dev.wordstats.benchmarks.BenchmarkJvm;
import dev.wordstats.numa.lock.LockTimer;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
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
 * The cost of a lock nobody else wants: {@code lock(); unlock();} on one thread, per lock type, bare
 * ({@code lockUnlock}) and wrapped in an {@code ObservedLock} that counts acquisitions and handoffs
 * without timing ({@code lockUnlockObserved}, {@link LockTimer#NONE}): the price of the service's
 * lock metrics. The locator is the single-node one: the uncontended path must not ask for a node.
 *
 * <pre>{@code
 * ./mvnw -pl benchmarks -am -Pbench verify -DskipTests -Dbench.config=benchmarks/config/uncontended.json
 * (. .mvn/select-jdk.sh && "$JAVA_HOME/bin/java" -jar benchmarks/target/benchmarks.jar UncontendedLockBenchmark)
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
public class UncontendedLockBenchmark {

    @Param
    public LockType lockType;

    private Lock lock;
    private Lock observed;

    @Setup
    public void setUp() {
        lock = lockType.create(NodeLocator.singleNode());
        observed = lockType.createObserved(NodeLocator.singleNode(), LockTimer.NONE);
    }

    @Benchmark
    public void lockUnlock() {
        lock.lock();
        lock.unlock();
    }

    @Benchmark
    public void lockUnlockObserved() {
        observed.lock();
        observed.unlock();
    }
}
