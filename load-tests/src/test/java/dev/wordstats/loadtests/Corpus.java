package dev.wordstats.loadtests;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.rng.sampling.distribution.DiscreteSampler;
import org.apache.commons.rng.sampling.distribution.RejectionInversionZipfSampler;
import org.apache.commons.rng.sampling.distribution.SharedStateDiscreteSampler;

/**
 * A deterministic corpus: a vocabulary of {@code size} distinct lower-case ASCII pseudo-words and
 * texts drawn from it with a Zipf(s) rank distribution (s = 0 gives a uniform draw). Everything
 * follows from the seed: text number k is the same on every run, whichever virtual user posts it.
 * Words are separated by spaces, commas, full stops and line breaks, and a sentence starts with a
 * capital, so the service's tokenizer (split on non-letters, lower-case) has something to do while
 * the word count stays trivial to know.
 */
final class Corpus {

    private static final String[] ONSETS = {
        "b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z", "br", "ch", "cl",
        "dr", "fl", "gr", "pl", "pr", "sh", "st", "th", "tr"
    };
    private static final String[] VOWELS = {"a", "e", "i", "o", "u", "ai", "ea", "io", "ou", "y"};

    private final long seed;
    private final List<String> vocabulary;
    /** Draws ranks 1..size (Commons RNG, the sampler of the text benchmark too); a copy per random source. */
    private final SharedStateDiscreteSampler ranks;

    Corpus(long seed, int size, double zipfExponent) {
        if (size < 1) {
            throw new IllegalArgumentException("vocabulary must be at least 1, was " + size);
        }
        if (zipfExponent < 0) {
            throw new IllegalArgumentException("zipf exponent must be >= 0, was " + zipfExponent);
        }
        this.seed = seed;
        this.vocabulary = List.copyOf(vocabulary(seed, size));
        this.ranks = RejectionInversionZipfSampler.of(new SplittableRandom(seed)::nextLong, size, zipfExponent);
    }

    private static Set<String> vocabulary(long seed, int size) {
        SplittableRandom random = new SplittableRandom(seed);
        Set<String> words = new LinkedHashSet<>();
        while (words.size() < size) {
            StringBuilder word = new StringBuilder();
            int syllables = 1 + random.nextInt(words.size() < 64 ? 2 : 4);
            for (int i = 0; i < syllables; i++) {
                word.append(ONSETS[random.nextInt(ONSETS.length)]).append(VOWELS[random.nextInt(VOWELS.length)]);
            }
            if (random.nextInt(3) == 0) {
                word.append("nrstlm".charAt(random.nextInt(6)));
            }
            words.add(word.toString());
        }
        return words;
    }

    List<String> vocabulary() {
        return vocabulary;
    }

    /** The word of the given popularity rank (0 is the most frequent). */
    String word(int rank) {
        return vocabulary.get(rank);
    }

    /** One word drawn by rank from {@code random}. */
    String draw(SplittableRandom random) {
        return draw(ranks.withUniformRandomProvider(random::nextLong));
    }

    private String draw(DiscreteSampler sampler) {
        return vocabulary.get(sampler.sample() - 1);
    }

    /** Text number {@code index}: {@code words} words in sentences of 3 to 12 words. */
    String text(long index, int words) {
        SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index);
        DiscreteSampler sampler = ranks.withUniformRandomProvider(random::nextLong);
        StringBuilder text = new StringBuilder(words * 8);
        int sentenceLeft = 0;
        for (int i = 0; i < words; i++) {
            String word = draw(sampler);
            if (sentenceLeft == 0) {
                if (i > 0) {
                    text.append(random.nextInt(4) == 0 ? ".\n" : ". ");
                }
                text.append(Character.toUpperCase(word.charAt(0))).append(word, 1, word.length());
                sentenceLeft = 3 + random.nextInt(10);
            } else {
                text.append(random.nextInt(6) == 0 ? ", " : " ").append(word);
            }
            sentenceLeft--;
        }
        return text.append('.').toString();
    }

    /** An endless, thread-safe feeder of texts numbered from 0: see {@link #text(long, int)}. */
    Iterator<Map<String, Object>> texts(int wordsPerText) {
        AtomicLong next = new AtomicLong();
        return new Endless(() -> {
            String text = text(next.getAndIncrement(), wordsPerText);
            return Map.of("text", text, "words", Tokens.words(text));
        });
    }

    /**
     * An endless, thread-safe feeder of batch bodies {@code {"lines": [...]}} of {@code lines}
     * texts each; the texts are numbered apart from {@link #texts(int)} so the two do not repeat.
     */
    Iterator<Map<String, Object>> batches(int lines, int wordsPerLine) {
        AtomicLong next = new AtomicLong(1L << 40);
        return new Endless(() -> {
            StringBuilder body = new StringBuilder("{\"lines\":[");
            List<String> words = new ArrayList<>();
            for (int i = 0; i < lines; i++) {
                String line = text(next.getAndIncrement(), wordsPerLine);
                words.addAll(Tokens.words(line));
                // ASCII letters, spaces, '.', ',' and line breaks: only the line break needs escaping.
                body.append(i == 0 ? "\"" : ",\"")
                        .append(line.replace("\n", "\\n"))
                        .append('"');
            }
            return Map.of("batch", body.append("]}").toString(), "lines", lines, "words", words);
        });
    }

    /** An endless, thread-safe feeder of single words drawn by rank ({@code word}). */
    Iterator<Map<String, Object>> words() {
        AtomicLong next = new AtomicLong(1L << 50);
        return new Endless(
                () -> Map.of("word", draw(new SplittableRandom(seed * 0x9E3779B97F4A7C15L + next.getAndIncrement()))));
    }

    private record Endless(java.util.function.Supplier<Map<String, Object>> supplier)
            implements Iterator<Map<String, Object>> {
        @Override
        public boolean hasNext() {
            return true;
        }

        @Override
        public Map<String, Object> next() {
            return supplier.get();
        }
    }
}
