package dev.wordstats.service.counts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.wordstats.numa.lock.probe.LockTimer;
import dev.wordstats.service.WordstatsProperties;
import dev.wordstats.service.numa.NumaRuntime;
import dev.wordstats.service.text.Tokenizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.mock.env.MockEnvironment;

/**
 * In per-node mode a batch started on node k is counted by workers on node k only: every stripe
 * lock acquisition of the batch (8 workers, 200 lines) is recorded under node k.
 */
@Timeout(60)
class BatchWorkersStayOnTheRequestNodeTest {

    @Test
    void aBatchStartedOnANodeTakesItsLocksOnlyFromThatNode() throws Exception {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs two CPUs for two simulated nodes");
        WordstatsProperties properties = new Binder(new MapConfigurationPropertySource(Map.of(
                        "wordstats.numa.simulated-nodes", "2",
                        "wordstats.numa.scheduler", "per-node",
                        "wordstats.batch.parallelism", "8")))
                .bindOrCreate("wordstats", WordstatsProperties.class);
        try (NumaRuntime numa = new NumaRuntime(
                properties, new MockEnvironment().withProperty("spring.threads.virtual.enabled", "true"))) {
            assumeTrue(numa.schedulers().perNode(), numa.schedulerSummary());
            WordStore store = new WordStore(properties, numa.nodeLocator(), LockTimer.NONE, LockTimer.NONE);
            WordCounting counting = new WordCounting(new Tokenizer(100), store, properties, numa);
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                lines.add("word" + i + " other" + (i % 17) + " third" + (i % 5));
            }
            for (int node = 0; node < 2; node++) {
                long[] before = store.lockAcquisitionsByNode();
                Thread request = numa.schedulers().builder(node).start(() -> counting.countBatch(lines));
                assertThat(request.join(Duration.ofSeconds(30))).isTrue();
                long[] after = store.lockAcquisitionsByNode();
                assertThat(after[node] - before[node])
                        .as("acquisitions on node %d", node)
                        .isPositive();
                assertThat(after[1 - node] - before[1 - node])
                        .as("acquisitions on the other node")
                        .isZero();
            }
            assertThat(store.total()).isEqualTo(2L * 3 * lines.size());
        }
    }
}
