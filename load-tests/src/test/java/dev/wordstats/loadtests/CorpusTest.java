package dev.wordstats.loadtests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CorpusTest {

    @Test
    void sameSeedGivesSameVocabularyAndTexts() {
        Corpus a = new Corpus(7, 1_000, 1.0);
        Corpus b = new Corpus(7, 1_000, 1.0);
        assertThat(a.vocabulary()).isEqualTo(b.vocabulary());
        assertThat(a.text(123, 40)).isEqualTo(b.text(123, 40));
        assertThat(new Corpus(8, 1_000, 1.0).text(123, 40)).isNotEqualTo(a.text(123, 40));
    }

    @Test
    void vocabularyIsDistinctLowerCaseAsciiWithoutTheUnsentMarker() {
        List<String> words = new Corpus(42, 20_000, 1.0).vocabulary();
        assertThat(words)
                .hasSize(20_000)
                .doesNotHaveDuplicates()
                .doesNotContain(WordTally.UNSENT_WORD)
                .allMatch(w -> w.matches("[a-z]{2,40}"));
    }

    @Test
    void everyTextCountsExactlyTheRequestedWordsFromTheVocabulary() {
        Corpus corpus = new Corpus(42, 50, 1.0);
        for (long i = 0; i < 200; i++) {
            List<String> words = Tokens.words(corpus.text(i, 25));
            assertThat(words).hasSize(25);
            assertThat(corpus.vocabulary()).containsAll(words);
        }
    }

    @Test
    void zipfDrawFavoursLowRanks() {
        Corpus corpus = new Corpus(1, 1_000, 1.0);
        SplittableRandom random = new SplittableRandom(3);
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < 100_000; i++) {
            seen.merge(corpus.draw(random), 1, Integer::sum);
        }
        // Zipf(1) over 1000 ranks: rank 0 about 13 %, rank 9 about 1.3 %, rank 999 about 0.013 %
        assertThat(seen.get(corpus.word(0))).isBetween(11_500, 15_500);
        assertThat(seen.get(corpus.word(0))).isGreaterThan(5 * seen.get(corpus.word(9)));
        assertThat(seen.getOrDefault(corpus.word(999), 0)).isLessThan(100);
    }

    @Test
    void uniformDrawWithExponentZeroUsesEveryWord() {
        Corpus corpus = new Corpus(1, 6, 0.0);
        SplittableRandom random = new SplittableRandom(5);
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < 60_000; i++) {
            seen.merge(corpus.draw(random), 1, Integer::sum);
        }
        assertThat(seen).hasSize(6);
        assertThat(seen.values()).allMatch(n -> n > 9_000 && n < 11_000);
    }

    @Test
    void batchFeederBodyIsJsonWhoseWordsMatchTheListItCarries() {
        Map<String, Object> batch = new Corpus(42, 100, 1.0).batches(3, 10).next();
        String body = (String) batch.get("batch");
        assertThat(body).startsWith("{\"lines\":[\"").endsWith("\"]}").doesNotContain("\n");
        assertThat(batch.get("lines")).isEqualTo(3);
        assertThat((List<?>) batch.get("words")).hasSize(30);
        assertThat(Tokens.words(body.replace("\\n", " ")).subList(1, 31)).isEqualTo(batch.get("words"));
    }

    @Test
    void rejectsAnEmptyVocabulary() {
        assertThatThrownBy(() -> new Corpus(1, 0, 1.0)).hasMessageContaining("vocabulary");
    }
}
