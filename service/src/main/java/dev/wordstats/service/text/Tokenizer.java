package dev.wordstats.service.text;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Splits text into words, by the one rule the whole project (load tests, outside checks) relies on:
 * <ol>
 *   <li>the text is NFC-normalized;</li>
 *   <li>a word is a maximal run of code points of the Unicode general categories L (letters),
 *       M (marks) or Nd (decimal digits);</li>
 *   <li>a single apostrophe, U+0027 {@code '} or U+2019 {@code ’}, between two such runs joins them
 *       into one word and stays in it ({@code don't}); any other apostrophe separates
 *       ({@code 'quoted'} is {@code quoted}, {@code a''b} is {@code a} and {@code b});</li>
 *   <li>words are lower-cased with {@link Locale#ROOT} (so {@code İ} becomes {@code i̇}, i + U+0307);</li>
 *   <li>a word longer than {@link #maxWordLength()} code points (counted after lower-casing, as
 *       stored) rejects the whole text with {@link WordTooLongException}.</li>
 * </ol>
 * Everything else (spaces, punctuation, symbols such as emoji, other number categories such as
 * {@code ²} or {@code Ⅻ}) separates words. Instances are immutable and thread-safe.
 */
public final class Tokenizer {

    private final int maxWordLength;

    /** @param maxWordLength the longest accepted word, in code points (at least 1) */
    public Tokenizer(int maxWordLength) {
        if (maxWordLength < 1) {
            throw new IllegalArgumentException("maxWordLength must be at least 1, was " + maxWordLength);
        }
        this.maxWordLength = maxWordLength;
    }

    /** The longest accepted word, in code points. */
    public int maxWordLength() {
        return maxWordLength;
    }

    /** The words of {@code text}, in order. */
    public List<String> words(CharSequence text) {
        List<String> words = new ArrayList<>();
        tokenize(text, words::add);
        return words;
    }

    /**
     * Adds one to {@code counts} for each word of {@code text}.
     *
     * @return the number of words
     */
    public long countInto(CharSequence text, Map<String, Long> counts) {
        long[] n = {0};
        tokenize(text, word -> {
            counts.merge(word, 1L, Long::sum);
            n[0]++;
        });
        return n[0];
    }

    private void tokenize(CharSequence text, WordSink sink) {
        String s = Normalizer.normalize(text, Normalizer.Form.NFC);
        int len = s.length();
        int i = 0;
        while (i < len) {
            int cp = s.codePointAt(i);
            if (!isWordCodePoint(cp)) {
                i += Character.charCount(cp);
                continue;
            }
            int start = i;
            int end = i;
            while (true) {
                // Extend over one run of word code points.
                while (end < len) {
                    int c = s.codePointAt(end);
                    if (!isWordCodePoint(c)) {
                        break;
                    }
                    end += Character.charCount(c);
                }
                // One apostrophe followed by another run joins it; anything else ends the word.
                if (end < len
                        && isApostrophe(s.charAt(end))
                        && end + 1 < len
                        && isWordCodePoint(s.codePointAt(end + 1))) {
                    end += 1;
                    continue;
                }
                break;
            }
            emit(s.substring(start, end), sink);
            i = end;
        }
    }

    private void emit(String raw, WordSink sink) {
        String word = raw.toLowerCase(Locale.ROOT);
        int length = word.codePointCount(0, word.length());
        if (length > maxWordLength) {
            throw new WordTooLongException(word, length, maxWordLength);
        }
        sink.accept(word);
    }

    /** Unicode general category L*, M* or Nd. */
    static boolean isWordCodePoint(int cp) {
        return switch (Character.getType(cp)) {
            case Character.UPPERCASE_LETTER,
                    Character.LOWERCASE_LETTER,
                    Character.TITLECASE_LETTER,
                    Character.MODIFIER_LETTER,
                    Character.OTHER_LETTER,
                    Character.NON_SPACING_MARK,
                    Character.ENCLOSING_MARK,
                    Character.COMBINING_SPACING_MARK,
                    Character.DECIMAL_DIGIT_NUMBER -> true;
            default -> false;
        };
    }

    private static boolean isApostrophe(char c) {
        return c == '\'' || c == '\u2019';
    }

    @FunctionalInterface
    private interface WordSink {
        void accept(String word);
    }
}
