package dev.wordstats.benchmarks.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ZipfTextTest {

    @Test
    void theSameSeedGivesTheSameLines() {
        assertThat(new ZipfText(1000, 1.0, 7).lines(200, 10, 7))
                .isEqualTo(new ZipfText(1000, 1.0, 7).lines(200, 10, 7));
        assertThat(new ZipfText(1000, 1.0, 7).lines(200, 10, 7))
                .isNotEqualTo(new ZipfText(1000, 1.0, 8).lines(200, 10, 8));
    }

    @Test
    void frequentWordsFollowZipf() {
        ZipfText text = new ZipfText(1000, 1.0, 1);
        Map<String, Integer> counts = new HashMap<>();
        for (String line : text.lines(20_000, 10, 1)) {
            ZipfText.forEachWord(line, w -> counts.merge(w, 1, Integer::sum));
        }
        String first = text.word(0);
        String second = text.word(1);
        // Zipf: rank 1 is about twice as frequent as rank 2.
        double ratio = counts.get(first) / (double) counts.get(second);
        assertThat(ratio).isBetween(1.8, 2.2);
        assertThat(counts.keySet()).allMatch(w -> w.matches("[a-z]{2,12}"));
    }

    @Test
    void linesOfExactlyNWordsHaveThatManyAndExponentZeroDrawsEveryWordAlike() {
        ZipfText hot = new ZipfText(6, 0.0, 3);
        Map<String, Integer> counts = new HashMap<>();
        for (String line : hot.linesOfExactly(3_000, 20, 3)) {
            List<String> words = new ArrayList<>();
            ZipfText.forEachWord(line, words::add);
            assertThat(words).hasSize(20);
            words.forEach(w -> counts.merge(w, 1, Integer::sum));
        }
        assertThat(counts).hasSize(6);
        // 60,000 draws over 6 words: each close to 10,000 (a Zipf(1) draw would give rank 1 about 41%)
        assertThat(counts.values()).allMatch(n -> n > 9_000 && n < 11_000);
    }

    @Test
    void linesSplitIntoTheirWords() {
        List<String> words = new ArrayList<>();
        ZipfText.forEachWord("ab cd  e", words::add);
        assertThat(words).containsExactly("ab", "cd", "e");
    }
}
