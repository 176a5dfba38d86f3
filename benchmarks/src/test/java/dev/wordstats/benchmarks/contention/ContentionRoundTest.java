package dev.wordstats.benchmarks.contention;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(30)
class ContentionRoundTest {

    /** The types that are {@link java.util.concurrent.locks.Lock}s: the round drives a Lock. */
    static java.util.stream.Stream<LockType> lockTypes() {
        return java.util.Arrays.stream(LockType.values()).filter(LockType::isLock);
    }

    @ParameterizedTest
    @MethodSource("lockTypes")
    void everyActionIsDoneOnceAndTheMetricsAreFilled(LockType type) throws InterruptedException {
        ContentionRound round = new ContentionRound(
                type.create(NodeLocator.singleNode()), NodeLocator.singleNode(), 1003, 8, 10, 50, 0, false, 0, true);
        round.start();
        round.run();
        ContentionMetrics metrics = new ContentionMetrics();
        round.report(metrics);
        round.join();

        assertThat(round.actionsDone()).isEqualTo(1003);
        assertThat(metrics.fairness).isBetween(1.0 / 8, 1.0);
        assertThat(metrics.waitMaxUs).isGreaterThanOrEqualTo(metrics.waitP99Us);
        assertThat(metrics.waitP99Us).isGreaterThanOrEqualTo(metrics.waitP50Us);
        assertThat(metrics.waitP50Us).isPositive();
        assertThat(metrics.crossNodePct).isZero();
    }

    @Test
    void handoffsBetweenNodesAreCountedAsCrossNode() throws InterruptedException {
        // Every lookup answers the other node than the one before: each handoff crosses.
        AtomicInteger lookups = new AtomicInteger();
        NodeLocator alternating = new NodeLocator() {
            @Override
            public int nodeCount() {
                return 2;
            }

            @Override
            public int currentNode() {
                return lookups.getAndIncrement() & 1;
            }
        };
        ContentionRound round = new ContentionRound(new ReentrantLock(), alternating, 200, 4, 0, 10, 1, true, 5, false);
        round.start();
        round.run();
        ContentionMetrics metrics = new ContentionMetrics();
        round.report(metrics);
        round.join();

        assertThat(metrics.crossNodePct).isEqualTo(100.0);
        assertThat(metrics.waitP99Us).isZero(); // waits not recorded
    }

    @Test
    void moreThreadsThanActionsIsRefused() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> new ContentionRound(
                        new ReentrantLock(), NodeLocator.singleNode(), 3, 4, 0, 0, 0, false, 0, false));
    }
}
