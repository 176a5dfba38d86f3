package dev.wordstats.numa.lock;

import static dev.wordstats.numa.lock.ConcurrencySupport.PROMPT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.lock.ConcurrencySupport.AssignedNodes;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadIdNodes;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

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
}
