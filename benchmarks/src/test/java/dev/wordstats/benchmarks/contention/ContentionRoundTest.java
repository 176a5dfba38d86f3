package dev.wordstats.benchmarks.contention;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Timeout(30)
class ContentionRoundTest {

    private static final LockContext CONTEXT = new LockContext(NodeLocator.singleNode(), 2);
    private static final Guard UNFAIR = LockType.UNFAIR_REENTRANT.create(CONTEXT);

    @ParameterizedTest
    @EnumSource(LockType.class)
    void everyActionIsDoneOnceAndTheMetricsAreFilled(LockType type) throws InterruptedException {
        ContentionRound round =
                new ContentionRound(type.create(CONTEXT), NodeLocator.singleNode(), 1003, 8, 10, 50, 0, false, 0, true);
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
        if (CarrierTimes.read(CarrierTimes.carrierTasks()).available()) { // Linux with scheduler statistics
            assertThat(metrics.carrierBusyCpus).isPositive();
            // Not at most 100: a wait that began before this microseconds-long round counts whole.
            assertThat(metrics.carrierWaitPct).isGreaterThanOrEqualTo(0.0);
        } else {
            assertThat(metrics.carrierBusyCpus).isNaN();
        }
    }

    /**
     * A FIFO lock hands the lock round the queue, so once every thread waits on it, each gets the
     * same share until the first finishes. Before a round started with every thread queued, the
     * first threads to get a carrier could run alone while the others were still being scheduled,
     * and this read far below 0.9 on a 2-carrier machine.
     */
    @Test
    void aFifoLockIsMeasuredFairFromTheMomentEveryThreadIsQueued() throws InterruptedException {
        for (int repeat = 0; repeat < 5; repeat++) {
            ContentionRound round = new ContentionRound(
                    LockType.FAIR_REENTRANT.create(CONTEXT),
                    NodeLocator.singleNode(),
                    16_000,
                    16,
                    0,
                    200,
                    0,
                    false,
                    0,
                    false);
            round.start();
            round.run();
            ContentionMetrics metrics = new ContentionMetrics();
            round.report(metrics);
            round.join();

            assertThat(metrics.fairness).as("Jain's index, round %d", repeat).isGreaterThan(0.9);
        }
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
        ContentionRound round = new ContentionRound(UNFAIR, alternating, 200, 4, 0, 10, 1, true, 5, false);
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
                .isThrownBy(
                        () -> new ContentionRound(UNFAIR, NodeLocator.singleNode(), 3, 4, 0, 0, 0, false, 0, false));
    }
}
