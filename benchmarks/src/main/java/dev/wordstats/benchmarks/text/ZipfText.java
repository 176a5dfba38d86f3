package dev.wordstats.benchmarks.text;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.commons.rng.sampling.distribution.DiscreteSampler;
import org.apache.commons.rng.sampling.distribution.RejectionInversionZipfSampler;
import org.apache.commons.rng.sampling.distribution.SharedStateDiscreteSampler;

/**
 * Deterministic synthetic text: lines of lower-case words drawn from a vocabulary whose word of
 * rank {@code k} has probability proportional to {@code 1 / k^exponent} (Zipf's law, as in natural
 * text); exponent 0 draws every word alike (a small hot vocabulary). The ranks come from Commons
 * RNG's rejection-inversion Zipf sampler, the one the load tests' corpus uses too, fed by a
 * {@link SplittableRandom}: the same seed gives the same lines on every JVM (both are specified).
 */
public final class ZipfText {

    private final String[] vocabulary;
    /** Draws ranks 1..vocabulary size; each list of lines gets its own copy on its own random source. */
    private final SharedStateDiscreteSampler ranks;

    /**
     * @param vocabularySize distinct words, at least 1
     * @param exponent Zipf exponent, 1.0 is close to English, 0 draws every word alike
     * @param seed seed of the word spellings
     */
    public ZipfText(int vocabularySize, double exponent, long seed) {
        if (vocabularySize < 1) {
            throw new IllegalArgumentException("vocabularySize must be at least 1, was " + vocabularySize);
        }
        this.vocabulary = spellings(vocabularySize, seed);
        this.ranks = RejectionInversionZipfSampler.of(new SplittableRandom(seed)::nextLong, vocabularySize, exponent);
    }

    /** {@code count} lines of {@code 1..2*meanWords-1} words each (uniform), words separated by one space. */
    public List<String> lines(int count, int meanWords, long seed) {
        return lines(count, meanWords, false, seed);
    }

    /** {@code count} lines of exactly {@code words} words each (at least 1), words separated by one space. */
    public List<String> linesOfExactly(int count, int words, long seed) {
        return lines(count, words, true, seed);
    }

    private List<String> lines(int count, int words, boolean exactly, long seed) {
        if (words < 1) {
            throw new IllegalArgumentException("words per line must be at least 1, was " + words);
        }
        SplittableRandom random = new SplittableRandom(seed);
        DiscreteSampler draw = ranks.withUniformRandomProvider(random::nextLong);
        List<String> lines = new ArrayList<>(count);
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < count; i++) {
            line.setLength(0);
            int n = exactly ? words : 1 + random.nextInt(2 * words - 1);
            for (int w = 0; w < n; w++) {
                if (w > 0) {
                    line.append(' ');
                }
                line.append(word(draw.sample() - 1));
            }
            lines.add(line.toString());
        }
        return lines;
    }

    /** The word of popularity rank {@code rank} (0 is the most frequent). */
    String word(int rank) {
        return vocabulary[rank];
    }

    int vocabularySize() {
        return vocabulary.length;
    }

    /** Distinct pronounceable-ish spellings of 2..12 letters. */
    private static String[] spellings(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed ^ 0x5DEECE66DL);
        java.util.Set<String> seen = new java.util.HashSet<>();
        String[] words = new String[count];
        int n = 0;
        while (n < count) {
            int length = 2 + random.nextInt(11);
            StringBuilder word = new StringBuilder(length);
            for (int c = 0; c < length; c++) {
                word.append((char) ('a' + random.nextInt(26)));
            }
            if (seen.add(word.toString())) {
                words[n++] = word.toString();
            }
        }
        return words;
    }

    /** Splits a generated line at single spaces without a regex. */
    public static void forEachWord(String line, java.util.function.Consumer<String> action) {
        int start = 0;
        int length = line.length();
        while (start < length) {
            int end = line.indexOf(' ', start);
            if (end < 0) {
                end = length;
            }
            if (end > start) {
                action.accept(line.substring(start, end));
            }
            start = end + 1;
        }
    }
}
