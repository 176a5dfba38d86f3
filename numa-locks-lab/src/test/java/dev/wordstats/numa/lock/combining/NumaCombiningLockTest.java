package dev.wordstats.numa.lock.combining;

import static dev.wordstats.numa.lock.ConcurrencySupport.PROMPT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.lock.CombiningSettings;
import dev.wordstats.numa.lock.ConcurrencySupport.AssignedNodes;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadIdNodes;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockGuard;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.ProbedLockContractTest;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.lock.probe.CountingProbe;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.lock.queue.NumaMcsLockTest;
import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link NumaCombiningLock} on two simulated nodes: the combining contract (the known-queue tests put every
 * thread on node 0, the stress tests spread threads over both nodes), the cross-node path, the factory and
 * the layout; {@link OneNode} runs the contract on a single node.
 */
class NumaCombiningLockTest extends CombiningContractTest {

    @Override
    protected Guard newGuard(CombiningSettings settings) {
        return new NumaCombiningLock(new AssignedNodes(2), settings, LockProbe.NONE);
    }

    @Override
    protected Guard newContendedGuard() {
        return TestLocks.guard(LockType.NUMA_COMBINING, new ThreadIdNodes(2));
    }

    /** The same contract with a timed {@link CountingProbe} on two nodes: reporting changes nothing it sees. */
    @Nested
    class Probed extends CombiningContractTest {
        @Override
        protected Guard newGuard(CombiningSettings settings) {
            AssignedNodes nodes = new AssignedNodes(2);
            return new NumaCombiningLock(
                    nodes, settings, new CountingProbe(nodes, new ProbedLockContractTest.CountingTimer()));
        }

        @Override
        protected Guard newContendedGuard() {
            ThreadIdNodes nodes = new ThreadIdNodes(2);
            return TestLocks.guard(
                    LockType.NUMA_COMBINING,
                    nodes,
                    new CountingProbe(nodes, new ProbedLockContractTest.CountingTimer()));
        }
    }

    /** The same contract with one node: one queue under the global lock. */
    @Nested
    class OneNode extends CombiningContractTest {
        @Override
        protected Guard newGuard(CombiningSettings settings) {
            return new NumaCombiningLock(NodeLocator.singleNode(), settings, LockProbe.NONE);
        }

        @Override
        protected Guard newContendedGuard() {
            return TestLocks.guard(LockType.NUMA_COMBINING, NodeLocator.singleNode());
        }
    }

    /**
     * While a node-0 thread holds the lock, node-1 callers queue on node 1: its first becomes that node's
     * combiner and waits for the global lock, then serves the others of node 1 in order; a node-1 section
     * calling the guard again runs inline on that combiner.
     */
    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void aNodeCombinerServesItsNodeAfterTheGlobalLockCrossesOver(ThreadKind kind) throws Exception {
        AssignedNodes nodes = new AssignedNodes(2);
        NumaCombiningLock guard =
                new NumaCombiningLock(nodes, new CombiningSettings(1_000, Duration.ofSeconds(30)), LockProbe.NONE);
        int waiters = 4;
        List<Integer> order = new ArrayList<>();
        Thread[] ranOn = new Thread[waiters];
        Thread[] callers = new Thread[waiters];
        try (Workers workers = new Workers(guard)) {
            Holding holding = hold(guard, kind, workers); // node 0
            for (int i = 0; i < waiters; i++) {
                int id = i;
                callers[i] = queue(workers, kind, "node1-waiter-" + i, () -> {
                    nodes.assign(1);
                    guard.run(() -> {
                        order.add(id);
                        ranOn[id] = Thread.currentThread();
                        guard.run(() -> order.add(100 + id)); // reentrant, inline
                    });
                });
            }
            holding.release();
            workers.joinAll(PROMPT);
        }
        assertThat(order).containsExactly(0, 100, 1, 101, 2, 102, 3, 103);
        assertThat(ranOn).as("node 1's first caller combined for node 1").containsOnly(callers[0]);
    }

    static Stream<Arguments> kindsAndHearings() {
        return Stream.of(ThreadKind.values())
                .flatMap(kind -> Stream.of(Hearing.values()).map(hearing -> Arguments.of(kind, hearing)));
    }

    /**
     * While a node-0 thread holds the lock, a single node-1 caller finds its node's queue empty (the fast path)
     * and waits for the global lock: the probe is told that it waited, with its wait, whether it hears the fast
     * path or not; the node-0 holder, which found both free, is still told of as not waiting.
     */
    @ParameterizedTest(name = "{0} threads, probe hears {1}")
    @MethodSource("kindsAndHearings")
    void aFastPathCallerThatWaitsForTheGlobalLockIsReportedAsWaiting(ThreadKind kind, Hearing hearing)
            throws Exception {
        AssignedNodes nodes = new AssignedNodes(2);
        RecordingProbe probe = new RecordingProbe(hearing);
        NumaCombiningLock guard = new NumaCombiningLock(nodes, LARGE_BATCHES, probe);
        long holdMillis = 20;
        Thread holder;
        Thread caller;
        try (Workers workers = new Workers(guard)) {
            Holding holding = hold(guard, kind, workers); // node 0
            holder = holding.thread;
            caller = queue(workers, kind, "node1-caller", () -> {
                nodes.assign(1);
                guard.run(() -> {});
            });
            Thread.sleep(holdMillis);
            holding.release();
            workers.joinAll(PROMPT);
        }
        long held = TimeUnit.MILLISECONDS.toNanos(holdMillis);
        assertThat(probe.calls("acquired", caller))
                .as("the node-1 caller waited for the global lock")
                .singleElement()
                .satisfies(call -> {
                    assertThat(call.waited()).isTrue();
                    assertThat(call.waitNanos()).isGreaterThanOrEqualTo(held);
                });
        if (hearing == Hearing.FAST_PATH_TIMED) {
            assertThat(probe.calls("released", caller)).singleElement().satisfies(call -> {
                assertThat(call.waited()).isTrue();
                assertThat(call.waitNanos()).isGreaterThanOrEqualTo(held);
            });
        }
        if (hearing == Hearing.WAITS_ONLY) {
            assertThat(probe.calls("acquired", holder))
                    .as("the holder did not wait")
                    .isEmpty();
        } else {
            assertThat(probe.calls("acquired", holder))
                    .as("the holder did not wait")
                    .singleElement()
                    .satisfies(call -> assertThat(call.waited()).isFalse());
        }
    }

    /**
     * Uncontended calls on either node find their queue and the global lock free: a probe that hears the fast
     * path is told of each as not waiting, a probe deaf to it of none.
     */
    @ParameterizedTest(name = "{0} threads, probe hears {1}")
    @MethodSource("kindsAndHearings")
    void uncontendedCallsOnEitherNodeAreReportedAsNotWaiting(ThreadKind kind, Hearing hearing) throws Exception {
        AssignedNodes nodes = new AssignedNodes(2);
        RecordingProbe probe = new RecordingProbe(hearing);
        NumaCombiningLock guard = new NumaCombiningLock(nodes, LARGE_BATCHES, probe);
        int[] path = {0, 1, 1, 0, 1};
        Thread caller;
        try (Workers workers = new Workers(guard)) {
            caller = workers.start(kind, "caller", () -> {
                for (int node : path) {
                    nodes.assign(node);
                    guard.run(() -> {});
                }
            });
            workers.joinAll(PROMPT);
        }
        if (hearing == Hearing.WAITS_ONLY) {
            assertThat(probe.calls).as("nothing waited").isEmpty();
            return;
        }
        assertThat(probe.calls("acquired", caller))
                .hasSize(path.length)
                .allSatisfy(call -> assertThat(call.waited()).isFalse());
        assertThat(probe.calls("released", caller))
                .hasSize(hearing == Hearing.FAST_PATH_TIMED ? path.length : 0)
                .allSatisfy(call -> assertThat(call.waited()).isFalse());
        assertThat(probe.calls)
                .as("every call by the caller")
                .allSatisfy(call -> assertThat(call.thread()).isSameAs(caller));
    }

    @Test
    void theTypeMakesOneQueuePerNodeAndIsNotALock() {
        Guard guard = TestLocks.guard(LockType.NUMA_COMBINING, new ThreadIdNodes(3));
        assertThat(guard).isInstanceOf(NumaCombiningLock.class);
        assertThat(((NumaCombiningLock) guard).queueCount()).isEqualTo(3);
        assertThat(guard.toString())
                .contains("NumaCombiningLock")
                .contains("Unlocked")
                .contains("queues=3");
        assertThat(LockType.NUMA_COMBINING.isLock()).isFalse();
        assertThat(guard).isNotInstanceOf(LockGuard.class);
        assertThatThrownBy(() -> new NumaCombiningLock(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new NumaCombiningLock(new NodeLocator() {
                    @Override
                    public int nodeCount() {
                        return 0;
                    }

                    @Override
                    public int currentNode() {
                        return 0;
                    }
                }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nodeCount");
    }

    @Test
    void ownerIsPaddedFromEveryOtherField() {
        NumaMcsLockTest.assertHotFieldsPadded(NumaCombiningLock.class, "owner");
    }

    /** What a {@link RecordingProbe} asks to hear: the probe settings a lock reports differently to. */
    enum Hearing {
        /** Every acquisition, untimed. */
        FAST_PATH,
        /** Every acquisition, timed (with its release). */
        FAST_PATH_TIMED,
        /** Only acquisitions that waited, untimed. */
        WAITS_ONLY
    }

    /** One report a {@link RecordingProbe} got, with the thread that made it. */
    record Call(String what, Thread thread, boolean waited, long waitNanos) {}

    /** Records every acquired and released call, with its thread, thread-safely. */
    static final class RecordingProbe implements LockProbe {
        final Queue<Call> calls = new ConcurrentLinkedQueue<>();
        private final Hearing hearing;

        RecordingProbe(Hearing hearing) {
            this.hearing = hearing;
        }

        @Override
        public boolean hearsFastPath() {
            return hearing != Hearing.WAITS_ONLY;
        }

        @Override
        public boolean timed() {
            return hearing == Hearing.FAST_PATH_TIMED;
        }

        @Override
        public void acquired(boolean waited, long waitNanos) {
            calls.add(new Call("acquired", Thread.currentThread(), waited, waitNanos));
        }

        @Override
        public void released(boolean waited, long waitNanos, long holdNanos) {
            calls.add(new Call("released", Thread.currentThread(), waited, waitNanos));
        }

        List<Call> calls(String what, Thread thread) {
            return calls.stream()
                    .filter(call -> call.what().equals(what) && call.thread() == thread)
                    .toList();
        }
    }
}
