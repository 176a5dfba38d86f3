package dev.wordstats.numa.lock.probe;

import static dev.wordstats.numa.lock.ConcurrencySupport.PROMPT;
import static dev.wordstats.numa.lock.ConcurrencySupport.awaitParkedOrDone;
import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.ConcurrencySupport.AssignedNodes;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.GuardContractTest;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.ProbedLockContractTest.CountingTimer;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.lock.probe.ProbedLockStatsTest.RecordingTimer;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every type's guard built with a {@link CountingProbe} keeps the {@link Guard} contract, and the probe
 * counts exactly: after every load of the contract, fast + slow = the outermost calls, handoffs =
 * calls - 1, one wait and one hold record per call, none negative.
 */
class ProbedGuardContractTest extends GuardContractTest {

    private final CountingTimer timer = new CountingTimer();
    private final Map<Guard, CountingProbe> probes = new ConcurrentHashMap<>(); // guards compare by identity

    @Override
    protected Guard newGuard(LockType type, NodeLocator nodes) {
        CountingProbe probe = new CountingProbe(nodes, timer);
        Guard guard = TestLocks.guard(type, nodes, probe);
        probes.put(guard, probe);
        return guard;
    }

    @Override
    protected void afterLoad(Guard guard, long outermostCalls) {
        LockStats stats = probes.get(guard).stats();
        assertThat(stats.acquisitions())
                .as("fast + slow vs outermost calls; %s", stats)
                .isEqualTo(outermostCalls);
        assertThat(stats.sameNodeHandoffs() + stats.crossNodeHandoffs())
                .as("handoffs; %s", stats)
                .isEqualTo(outermostCalls - 1);
        assertThat(timer.waits.sum()).as("wait records").isEqualTo(outermostCalls);
        assertThat(timer.holds.sum()).as("hold records").isEqualTo(outermostCalls);
        assertThat(timer.negative.sum()).as("negative durations recorded").isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void uncontendedCallsAreFastAndStayOnTheNode(LockType type) {
        CountingProbe probe = new CountingProbe(NodeLocator.singleNode(), LockTimer.NONE);
        Guard guard = TestLocks.guard(type, NodeLocator.singleNode(), probe);
        assertThat(probe.stats()).isEqualTo(LockStats.ZERO);
        for (int i = 0; i < 100; i++) {
            guard.run(() -> {});
        }
        assertThat(probe.stats()).isEqualTo(new LockStats(100, 0, 99, 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void nestedCallsAreOneAcquisitionWithOneRecordEach(LockType type) {
        RecordingTimer recording = new RecordingTimer();
        CountingProbe probe = new CountingProbe(NodeLocator.singleNode(), recording);
        Guard guard = TestLocks.guard(type, NodeLocator.singleNode(), probe);
        int result = guard.call(() -> guard.call(() -> {
            guard.run(() -> {});
            return 3;
        }));
        assertThat(result).isEqualTo(3);
        assertThat(probe.stats().acquisitions()).isEqualTo(1);
        assertThat(recording.waits).hasSize(1);
        assertThat(recording.holds).hasSize(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void callArrivingWhileBusyTakesTheSlowPathAndIsTimed(LockType type) throws Exception {
        RecordingTimer recording = new RecordingTimer();
        CountingProbe probe = new CountingProbe(NodeLocator.singleNode(), recording);
        Guard guard = TestLocks.guard(type, NodeLocator.singleNode(), probe);
        long holdMillis = 30;
        try (Workers workers = new Workers(guard)) {
            GuardHolder holder = hold(guard, ThreadKind.VIRTUAL, workers);
            Thread waiter = workers.start(ThreadKind.VIRTUAL, "waiter", () -> guard.run(() -> {}));
            assertThat(awaitParkedOrDone(waiter, PROMPT)).isTrue();
            Thread.sleep(holdMillis);
            holder.release();
            workers.joinAll(PROMPT);
        }
        assertThat(probe.stats()).isEqualTo(new LockStats(1, 1, 1, 0));
        assertThat(recording.waits).hasSize(2);
        assertThat(recording.holds).hasSize(2);
        assertThat(recording.waits.stream().mapToLong(Long::longValue).max().orElseThrow())
                .as("the waiter's wait")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(holdMillis));
        assertThat(recording.holds.stream().mapToLong(Long::longValue).max().orElseThrow())
                .as("the holder's hold")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(holdMillis));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void turnsBetweenThreadsOnAlternatingNodesAreAllCrossNodeHandoffs(LockType type) throws Exception {
        AssignedNodes nodes = new AssignedNodes(2);
        CountingProbe probe = new CountingProbe(nodes, LockTimer.NONE);
        Guard guard = TestLocks.guard(type, nodes, probe);
        int rounds = 50;
        Semaphore[] turn = {new Semaphore(1), new Semaphore(0)};
        try (Workers workers = new Workers(guard)) {
            for (int node = 0; node < 2; node++) {
                int me = node;
                workers.start(ThreadKind.VIRTUAL, "node-" + node, () -> {
                    nodes.assign(me);
                    for (int r = 0; r < rounds; r++) {
                        turn[me].acquire();
                        guard.run(() -> {});
                        turn[1 - me].release();
                    }
                });
            }
            workers.joinAll(PROMPT);
        }
        assertThat(probe.stats()).isEqualTo(new LockStats(2L * rounds, 0, 0, 2L * rounds - 1));
    }
}
