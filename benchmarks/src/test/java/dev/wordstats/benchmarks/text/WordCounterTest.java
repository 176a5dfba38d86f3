package dev.wordstats.benchmarks.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.topology.NodeLocator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every store of the text task counts every word exactly once, per word and per pre-aggregated
 * line, with virtual and platform threads pulling lines off one cursor, as the benchmark does.
 */
class WordCounterTest {

    private static final int THREADS = 8;

    static Stream<Arguments> stores() {
        List<Arguments> cases = new ArrayList<>();
        for (String kind : List.of(
                "SYNCHRONIZED",
                "UNFAIR_REENTRANT",
                "NUMA_MCS",
                "COMBINING",
                "PER_THREAD_MAPS",
                "CHM_LONG_ADDER",
                "CHM_MERGE",
                "SPIN_BOUND")) {
            for (boolean perLine : List.of(false, true)) {
                for (boolean virtual : List.of(true, false)) {
                    cases.add(Arguments.of(kind, perLine, virtual));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} perLine={1} virtual={2}")
    @MethodSource("stores")
    void everyWordIsCountedOnce(String kind, boolean perLine, boolean virtual) throws InterruptedException {
        List<String> text = new ZipfText(50, 1.0, 5).linesOfExactly(2_000, 20, 5);
        WordCounter counter = WordCounter.create(kind, 4, THREADS, NodeLocator.singleNode());
        AtomicInteger cursor = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            WordCounter.Sink sink = counter.sink(t);
            Runnable work = () -> {
                Map<String, Long> deltas = new HashMap<>();
                for (int i = cursor.getAndIncrement(); i < text.size(); i = cursor.getAndIncrement()) {
                    if (perLine) {
                        deltas.clear();
                        ZipfText.forEachWord(text.get(i), w -> deltas.merge(w, 1L, Long::sum));
                        sink.addAll(deltas);
                    } else {
                        ZipfText.forEachWord(text.get(i), sink::increment);
                    }
                }
            };
            threads.add(
                    virtual
                            ? Thread.ofVirtual().start(work)
                            : Thread.ofPlatform().start(work));
        }
        for (Thread thread : threads) {
            assertThat(thread.join(java.time.Duration.ofSeconds(30)))
                    .as("worker ended")
                    .isTrue();
        }
        counter.finish();

        assertThat(counter.total()).isEqualTo(2_000L * 20);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aStoreStartsEmpty(String kind) {
        WordCounter counter = WordCounter.create(kind, 1, 2, NodeLocator.singleNode());
        counter.finish();
        assertThat(counter.total()).isZero();
    }

    static Stream<String> kinds() {
        return Stream.concat(Stream.of("SYNCHRONIZED"), TextStatsBenchmark.BOUNDS.stream());
    }

    @org.junit.jupiter.api.Test
    void perThreadMapsCountNothingUntilMergedAndKeepEachWorkersWordsApart() {
        WordCounter counter = WordCounter.create("PER_THREAD_MAPS", 1, 2, NodeLocator.singleNode());
        counter.sink(0).increment("a");
        counter.sink(1).addAll(Map.of("a", 2L, "b", 3L));
        assertThat(counter.total()).as("before finish").isZero();

        counter.finish();

        assertThat(counter.total()).isEqualTo(6);
    }
}
