package dev.wordstats.loadtests;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class WordTallyTest {

    @Test
    @Timeout(30)
    void countsEveryWordAddedFromManyThreads() throws InterruptedException {
        WordTally tally = new WordTally();
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 1_000; i++) {
                executor.submit(() -> tally.add(List.of("alpha", "beta", "alpha")));
            }
            executor.shutdown();
            assertThat(executor.awaitTermination(20, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(tally.total()).isEqualTo(3_000);
        assertThat(tally.requests()).isEqualTo(1_000);
        assertThat(tally.count("alpha")).isEqualTo(2_000);
        assertThat(tally.count("beta")).isEqualTo(1_000);
        assertThat(tally.count("gamma")).isZero();
    }

    @Test
    void sampleHasTheMostFrequentWordsAndOneNeverSent() {
        WordTally tally = new WordTally();
        tally.add(List.of("a", "a", "a", "b", "b", "c", "d", "e", "f"));
        List<String> sample = tally.sample(1, 4);
        assertThat(sample).startsWith("a", "b").endsWith(WordTally.UNSENT_WORD).doesNotHaveDuplicates();
        assertThat(sample.size()).isBetween(4, 5);
    }
}
