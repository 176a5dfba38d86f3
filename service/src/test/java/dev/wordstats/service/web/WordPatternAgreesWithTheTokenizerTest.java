package dev.wordstats.service.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.service.text.Tokenizer;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The word pattern the OpenAPI document states for {@code GET /api/words/{word}} and the tokenizer
 * agree: for every code point, and over generated words and generated non-words. The controller
 * checks the pattern itself, so a value the document forbids is refused and a value it allows is
 * one word.
 */
class WordPatternAgreesWithTheTokenizerTest {

    private static final Pattern WORD = Pattern.compile(WordController.WORD_PATTERN);
    private static final Tokenizer TOKENIZER = new Tokenizer(100_000);
    private static final long SEED = Long.getLong("wordstats.test.seed", System.nanoTime());

    /** Every code point the pattern's class accepts (every word code point), and every other but the apostrophes. */
    private static final int[] WORD_CODE_POINTS;

    private static final int[] OTHER_CODE_POINTS;

    static {
        List<Integer> word = new ArrayList<>();
        List<Integer> other = new ArrayList<>();
        for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
            if (WORD.matcher(Character.toString(cp)).matches()) {
                word.add(cp);
            } else if (cp != '\'' && cp != '\u2019') { // an apostrophe may join runs: tested on its own
                other.add(cp);
            }
        }
        WORD_CODE_POINTS = word.stream().mapToInt(Integer::intValue).toArray();
        OTHER_CODE_POINTS = other.stream().mapToInt(Integer::intValue).toArray();
    }

    @Test
    void everyCodePointIsAWordByThePatternExactlyWhenTheTokenizerMakesOneWordOfIt() {
        List<String> disagree = new ArrayList<>();
        for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
            String s = Character.toString(cp);
            for (String candidate : List.of(s, "a" + s, "a'" + s, s + "\u2019a")) {
                boolean pattern = WORD.matcher(candidate).matches();
                List<String> words = TOKENIZER.words(candidate);
                if (pattern && words.size() != 1) {
                    disagree.add(String.format("U+%04X in \"%s\": pattern yes, tokenizer %s", cp, candidate, words));
                }
            }
            // The other way round holds too, but for the few symbols whose NFC form holds a mark
            // (U+2ADC, some musical symbols): the tokenizer normalizes first, so a text with them
            // counts that mark; a lookup of them is refused by the pattern, as documented.
            if (Normalizer.isNormalized(s, Normalizer.Form.NFC)
                    && WORD.matcher(s).matches() != (TOKENIZER.words(s).size() == 1)) {
                disagree.add(String.format("U+%04X alone", cp));
            }
        }
        assertThat(disagree).isEmpty();
        assertThat(WORD_CODE_POINTS.length).isGreaterThan(100_000);
    }

    @Test
    void generatedWordsMatchThePatternAndAreOneWord() {
        Random random = new Random(SEED);
        for (int i = 0; i < 5_000; i++) {
            String word = generatedWord(random);
            assertThat(WORD.matcher(word).matches())
                    .as("seed %d: %s", SEED, codePoints(word))
                    .isTrue();
            assertThat(TOKENIZER.words(word))
                    .as("seed %d: %s", SEED, codePoints(word))
                    .hasSize(1);
        }
    }

    @Test
    void aGeneratedWordWithAnythingElseInsertedOrAnApostropheAtAnEdgeIsNotAWordByThePattern() {
        Random random = new Random(SEED);
        for (int i = 0; i < 5_000; i++) {
            String word = generatedWord(random);
            int[] cps = word.codePoints().toArray();
            int at = random.nextInt(cps.length + 1);
            StringBuilder bad = new StringBuilder();
            for (int k = 0; k < cps.length; k++) {
                if (k == at) {
                    bad.appendCodePoint(OTHER_CODE_POINTS[random.nextInt(OTHER_CODE_POINTS.length)]);
                }
                bad.appendCodePoint(cps[k]);
            }
            if (at == cps.length) {
                bad.appendCodePoint(OTHER_CODE_POINTS[random.nextInt(OTHER_CODE_POINTS.length)]);
            }
            String inserted = bad.toString();
            assertThat(WORD.matcher(inserted).matches())
                    .as("seed %d: %s", SEED, codePoints(inserted))
                    .isFalse();
            assertThat(WORD.matcher("'" + word).matches()).isFalse();
            assertThat(WORD.matcher(word + "\u2019").matches()).isFalse();
            assertThat(WORD.matcher(word.replaceFirst("(['\u2019])", "$1$1")).matches())
                    .as("a doubled apostrophe")
                    .isEqualTo(!word.contains("'") && !word.contains("\u2019"));
        }
    }

    /** Runs of 1..4 word code points (letters, marks, digits, any plane) joined by single apostrophes. */
    private static String generatedWord(Random random) {
        StringBuilder word = new StringBuilder();
        int runs = 1 + random.nextInt(3);
        for (int r = 0; r < runs; r++) {
            if (r > 0) {
                word.append(random.nextBoolean() ? '\'' : '\u2019');
            }
            int length = 1 + random.nextInt(4);
            for (int k = 0; k < length; k++) {
                word.appendCodePoint(WORD_CODE_POINTS[random.nextInt(WORD_CODE_POINTS.length)]);
            }
        }
        return word.toString();
    }

    private static String codePoints(String s) {
        StringBuilder out = new StringBuilder();
        s.codePoints().forEach(cp -> out.append(String.format("U+%04X ", cp)));
        return out.toString().strip();
    }
}
