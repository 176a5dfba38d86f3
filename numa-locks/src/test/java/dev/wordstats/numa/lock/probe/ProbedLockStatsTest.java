package dev.wordstats.numa.lock.probe;

import static dev.wordstats.numa.lock.ConcurrencySupport.DURATION_MILLIS;
import static dev.wordstats.numa.lock.ConcurrencySupport.PROMPT;
import static dev.wordstats.numa.lock.ConcurrencySupport.SEED;
import static dev.wordstats.numa.lock.ConcurrencySupport.awaitParkedOrDone;
import static dev.wordstats.numa.lock.ConcurrencySupport.hold;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.lock.ConcurrencySupport.AssignedNodes;
import dev.wordstats.numa.lock.ConcurrencySupport.CriticalSection;
import dev.wordstats.numa.lock.ConcurrencySupport.Holder;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadIdNodes;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.ProbedLockContractTest;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.lock.jdk.ProbedJdkLock;
import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.Arrays;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a {@link CountingProbe} counts and times from the lock of every {@link LockType} that is a Lock:
 * each outermost acquisition once (fast or slow), each handoff between two acquisitions once (same or
 * cross node), one wait and one hold record per acquisition.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ProbedLockStatsTest {

    static Stream<Arguments> typesAndKinds() {
        return lockTypes().flatMap(type -> Arrays.stream(ThreadKind.values()).map(kind -> Arguments.of(type, kind)));
    }

    /** The types that are Locks (every type's guard: ProbedGuardContractTest). */
    static Stream<LockType> lockTypes() {
        return Arrays.stream(LockType.values()).filter(LockType::isLock);
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("typesAndKinds")
    void contendedStatsCountEveryAcquisitionOnceAndEveryHandoffBetweenThem(LockType type, ThreadKind kind)
            throws Exception {
        ProbedLockContractTest.CountingTimer timer = new ProbedLockContractTest.CountingTimer();
        CountingProbe probe = new CountingProbe(new ThreadIdNodes(2), timer);
        Lock lock = TestLocks.lock(type, new ThreadIdNodes(2), LockSettings.DEFAULTS, probe);
        CriticalSection section = new CriticalSection();
        LongAdder acquisitions = new LongAdder();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DURATION_MILLIS);
        try (Workers workers = new Workers(lock + " seed " + SEED)) {
            for (int t = 0; t < kind.stressThreads(); t++) {
                SplittableRandom random = new SplittableRandom(SEED + t);
                workers.start(kind, "contender-" + t, () -> {
                    while (System.nanoTime() < end) {
                        boolean acquired = switch (random.nextInt(4)) {
                            case 0 -> {
                                lock.lock();
                                yield true;
                            }
                            case 1 -> {
                                lock.lockInterruptibly();
                                yield true;
                            }
                            case 2 -> lock.tryLock();
                            default -> lock.tryLock(random.nextInt(20_000), TimeUnit.NANOSECONDS);
                        };
                        if (!acquired) {
                            continue;
                        }
                        try {
                            if (random.nextInt(8) == 0) { // a nested hold is not another acquisition
                                lock.lock();
                                lock.unlock();
                            }
                            section.enter(random.nextInt(16) == 0);
                        } finally {
                            lock.unlock();
                        }
                        acquisitions.increment();
                    }
                });
            }
            workers.joinAll(Duration.ofMillis(DURATION_MILLIS).plus(PROMPT));
        }
        LockStats stats = probe.stats();
        long n = acquisitions.sum();
        assertThat(section.counter()).isEqualTo(n).isPositive();
        assertThat(stats.acquisitions())
                .as("fast + slow vs acquisitions; %s", stats)
                .isEqualTo(n);
        assertThat(stats.sameNodeHandoffs() + stats.crossNodeHandoffs())
                .as("handoffs; %s", stats)
                .isEqualTo(n - 1);
        assertThat(timer.waits.sum()).as("wait records").isEqualTo(n);
        assertThat(timer.holds.sum()).as("hold records").isEqualTo(n);
        assertThat(timer.negative.sum()).as("negative durations recorded").isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lockTypes")
    void handoffsBetweenThreadsOnAlternatingNodesAllCrossNodes(LockType type) throws Exception {
        AssignedNodes nodes = new AssignedNodes(2);
        CountingProbe probe = new CountingProbe(nodes, LockTimer.NONE);
        Lock lock = TestLocks.lock(type, nodes, LockSettings.DEFAULTS, probe);
        int rounds = 50;
        Semaphore[] turn = {new Semaphore(1), new Semaphore(0)};
        try (Workers workers = new Workers(lock)) {
            for (int node = 0; node < 2; node++) {
                int me = node;
                workers.start(ThreadKind.VIRTUAL, "node-" + node, () -> {
                    nodes.assign(me);
                    for (int r = 0; r < rounds; r++) {
                        turn[me].acquire();
                        lock.lock();
                        lock.unlock();
                        turn[1 - me].release();
                    }
                });
            }
            workers.joinAll(PROMPT);
        }
        assertThat(probe.stats()).isEqualTo(new LockStats(2L * rounds, 0, 0, 2L * rounds - 1));
        assertThat(probe.acquisitionsByNode()).as("acquisitions by node").containsExactly(rounds, rounds);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lockTypes")
    void uncontendedAcquisitionsTakeTheFastPathAndStayOnTheNode(LockType type) {
        CountingProbe probe = new CountingProbe(NodeLocator.singleNode(), LockTimer.NONE);
        Lock lock = TestLocks.lock(type, NodeLocator.singleNode(), LockSettings.DEFAULTS, probe);
        assertThat(probe.stats()).isEqualTo(LockStats.ZERO);
        for (int i = 0; i < 100; i++) {
            lock.lock();
            lock.unlock();
        }
        assertThat(probe.stats()).isEqualTo(new LockStats(100, 0, 99, 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lockTypes")
    void waitingAcquisitionTakesTheSlowPathAndIsTimed(LockType type) throws Exception {
        RecordingTimer timer = new RecordingTimer();
        CountingProbe probe = new CountingProbe(NodeLocator.singleNode(), timer);
        Lock lock = TestLocks.lock(type, NodeLocator.singleNode(), LockSettings.DEFAULTS, probe);
        long holdMillis = 30;
        try (Workers workers = new Workers(lock)) {
            Holder holder = hold(lock, ThreadKind.VIRTUAL, workers);
            Thread waiter = workers.start(ThreadKind.VIRTUAL, "waiter", () -> {
                lock.lock();
                lock.unlock();
            });
            assertThat(awaitParkedOrDone(waiter, PROMPT)).isTrue();
            assertThat(lock.tryLock(1, TimeUnit.MILLISECONDS))
                    .as("timed tryLock on a held lock")
                    .isFalse();
            assertThat(lock.tryLock()).as("tryLock on a held lock").isFalse();
            Thread.sleep(holdMillis);
            holder.release();
            workers.joinAll(PROMPT);
        }
        assertThat(probe.stats()).as("failed tryLocks count nothing").isEqualTo(new LockStats(1, 1, 1, 0));
        assertThat(timer.waits).hasSize(2);
        assertThat(timer.holds).hasSize(2);
        assertThat(timer.waits.stream().mapToLong(Long::longValue).max().orElseThrow())
                .as("the waiter's wait")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(holdMillis));
        assertThat(timer.holds.stream().mapToLong(Long::longValue).max().orElseThrow())
                .as("the holder's hold")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(holdMillis));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lockTypes")
    void nestedHoldIsOneAcquisitionWithOneHoldRecord(LockType type) {
        RecordingTimer timer = new RecordingTimer();
        CountingProbe probe = new CountingProbe(NodeLocator.singleNode(), timer);
        Lock lock = TestLocks.lock(type, NodeLocator.singleNode(), LockSettings.DEFAULTS, probe);
        lock.lock();
        lock.lock();
        lock.unlock();
        assertThat(timer.holds).as("no hold record before the outermost unlock").isEmpty();
        lock.unlock();
        assertThat(probe.stats().acquisitions()).isEqualTo(1);
        assertThat(timer.waits).hasSize(1);
        assertThat(timer.holds).hasSize(1);
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
    }

    /** A probed JDK lock has no conditions; the project's locks keep theirs, their waits reported as any other. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("lockTypes")
    void newConditionThrowsOnlyForAProbedJdkLock(LockType type) throws Exception {
        CountingProbe probe = new CountingProbe(NodeLocator.singleNode(), LockTimer.NONE);
        Lock lock = TestLocks.lock(type, NodeLocator.singleNode(), LockSettings.DEFAULTS, probe);
        if (lock instanceof ProbedJdkLock) {
            assertThatThrownBy(lock::newCondition)
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("conditions");
            return;
        }
        Condition condition = lock.newCondition();
        lock.lock();
        try {
            assertThat(condition.await(1, TimeUnit.MILLISECONDS)).isFalse();
        } finally {
            lock.unlock();
        }
        assertThat(probe.stats().acquisitions())
                .as("the await released the lock and took it again")
                .isEqualTo(2);
    }

    /** Keeps every record, thread-safely. */
    static final class RecordingTimer implements LockTimer {
        final Queue<Long> waits = new ConcurrentLinkedQueue<>();
        final Queue<Long> holds = new ConcurrentLinkedQueue<>();

        @Override
        public void recordWait(long nanos) {
            waits.add(nanos);
        }

        @Override
        public void recordHold(long nanos) {
            holds.add(nanos);
        }
    }
}
