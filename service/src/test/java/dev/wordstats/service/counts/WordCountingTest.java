package dev.wordstats.service.counts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.lock.probe.LockTimer;
import dev.wordstats.numa.topology.NodeLocator;
import dev.wordstats.service.WordstatsProperties;
import dev.wordstats.service.text.Tokenizer;
import dev.wordstats.service.text.WordTooLongException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** Batches on parallel virtual threads: exact, and all or nothing. */
@Timeout(30)
class WordCountingTest {

    private static WordstatsProperties properties(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("wordstats", WordstatsProperties.class);
    }

    private final WordstatsProperties properties = properties(Map.of(
            "wordstats.lock.stripes",
            "4",
            "wordstats.batch.parallelism",
            "4",
            "wordstats.limits.max-distinct-words",
            "1000"));
    private final WordStore store = new WordStore(properties, NodeLocator.singleNode(), LockTimer.NONE, LockTimer.NONE);
    private final WordCounting counting = new WordCounting(new Tokenizer(10), store, properties);

    @Test
    void parallelBatchCountsEveryLineExactly() {
        List<String> lines = new ArrayList<>();
        Map<String, Long> expected = new HashMap<>();
        for (int i = 0; i < 500; i++) {
            String line = "w" + (i % 7) + " w" + (i % 13) + " common";
            lines.add(line);
            for (String w : line.split(" ")) {
                expected.merge(w, 1L, Long::sum);
            }
        }
        WordCounting.BatchResult result = counting.countBatch(lines);
        assertThat(result.lines()).isEqualTo(500);
        assertThat(result.words()).isEqualTo(1500);
        expected.forEach((word, count) -> assertThat(store.count(word)).as(word).isEqualTo(count));
        assertThat(store.total()).isEqualTo(1500);
        assertThat(store.wordsCounted()).isEqualTo(1500);
        assertThat(store.lockStats().acquisitions()).isPositive();
    }

    @Test
    void batchWithATooLongWordCountsNothing() {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            lines.add("fine words here");
        }
        lines.add("x".repeat(11));
        assertThatThrownBy(() -> counting.countBatch(lines)).isInstanceOf(WordTooLongException.class);
        assertThat(store.total()).isZero();
        assertThat(store.wordsCounted()).isZero();
    }

    @Test
    void batchThatWouldPassTheDistinctCapCountsNothing() {
        List<String> fill = new ArrayList<>();
        for (int i = 0; i < 998; i++) {
            fill.add("f" + i);
        }
        counting.countBatch(fill);
        assertThat(store.distinct()).isEqualTo(998);
        assertThatThrownBy(() -> counting.countBatch(List.of("f1 f2", "new1", "new2", "new3")))
                .isInstanceOf(StoreFullException.class);
        assertThat(store.distinct()).isEqualTo(998);
        assertThat(store.total()).isEqualTo(998);
        assertThat(store.count("f1")).isEqualTo(1);
        counting.countBatch(List.of("f1", "new1", "new2"));
        assertThat(store.distinct()).isEqualTo(1000);
    }

    @Test
    void batchesRacingAtTheCapNeverTakeTheStorePastIt() throws Exception {
        // Each batch fits alone (250 of 1000 words) but not together: eight at once, started together,
        // as concurrent requests arrive; the cap must hold whichever interleaving the threads take.
        int batches = 8;
        int wordsPerBatch = 250;
        List<List<String>> bodies = new ArrayList<>();
        for (int b = 0; b < batches; b++) {
            List<String> lines = new ArrayList<>();
            for (int l = 0; l < 25; l++) {
                StringBuilder line = new StringBuilder();
                for (int w = 0; w < wordsPerBatch / 25; w++) {
                    line.append("b").append(b).append("w").append(l * 10 + w).append(' ');
                }
                lines.add(line.toString());
            }
            bodies.add(lines);
        }
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger accepted = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
        try (var executor = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
            for (List<String> body : bodies) {
                futures.add(executor.submit(() -> {
                    go.await();
                    try {
                        counting.countBatch(body);
                        accepted.incrementAndGet();
                    } catch (StoreFullException e) {
                        refused.incrementAndGet();
                    }
                    return null;
                }));
            }
            go.countDown();
            for (var future : futures) {
                future.get(20, java.util.concurrent.TimeUnit.SECONDS);
            }
        }
        assertThat(accepted.get()).as("batches that fit").isEqualTo(4);
        assertThat(refused.get()).isEqualTo(batches - 4);
        assertThat(store.distinct()).isEqualTo(4L * wordsPerBatch).isLessThanOrEqualTo(store.maxDistinct());
        assertThat(store.total()).isEqualTo(4L * wordsPerBatch);
        assertThat(store.top(2000)).hasSize(4 * wordsPerBatch);
    }
}
