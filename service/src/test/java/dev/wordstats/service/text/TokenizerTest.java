package dev.wordstats.service.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

/**
 * Pins the tokenizer rules (README "API"): NFC, runs of L/M/Nd, single apostrophes join, ROOT lower case,
 * length in code points. The text-to-words cases are the rows of {@code spec/tokenizer-cases.tsv}, shared with
 * the load tests' oracle; the length limit and {@code countInto} are the service's own.
 */
class TokenizerTest {

    private static final Pattern UNICODE_ESCAPE = Pattern.compile("\\\\u([0-9A-Fa-f]{4})");

    private final Tokenizer tokenizer = new Tokenizer(100);

    /**
     * One row of {@code spec/tokenizer-cases.tsv} (a test resource, see service/pom.xml): name, text and the
     * expected words (space-separated; an empty cell reads as null), with Java escapes.
     */
    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/tokenizer-cases.tsv", delimiter = '\t', ignoreLeadingAndTrailingWhitespace = false)
    void findsTheWordsOfEachSharedCase(String name, @Nullable String text, @Nullable String words) {
        List<String> expected =
                words == null ? List.of() : List.of(unescape(words).split(" "));
        assertThat(tokenizer.words(text == null ? "" : unescape(text))).containsExactlyElementsOf(expected);
    }

    @Test
    void wordOfExactlyTheLimitIsAccepted() {
        assertThat(tokenizer.words("a".repeat(100))).containsExactly("a".repeat(100));
    }

    @Test
    void wordOverTheLimitIsRejected() {
        assertThatThrownBy(() -> tokenizer.words("ok " + "a".repeat(101)))
                .isInstanceOf(WordTooLongException.class)
                .hasMessageContaining("101 code points")
                .hasMessageContaining("limit of 100");
    }

    @Test
    void lengthLimitCountsCodePointsNotChars() {
        // U+1D400 MATHEMATICAL BOLD CAPITAL A is a letter outside the BMP: 2 chars, 1 code point.
        // Lower-casing leaves it as it is.
        String bold = new String(Character.toChars(0x1D400));
        assertThat(tokenizer.words(bold.repeat(100)))
                .singleElement()
                .satisfies(w -> assertThat(w.codePointCount(0, w.length())).isEqualTo(100));
        assertThatThrownBy(() -> tokenizer.words(bold.repeat(101))).isInstanceOf(WordTooLongException.class);
    }

    @Test
    void apostropheCountsTowardsTheLength() {
        Tokenizer short5 = new Tokenizer(5);
        assertThat(short5.words("ab'cd")).containsExactly("ab'cd");
        assertThatThrownBy(() -> short5.words("ab'cde")).isInstanceOf(WordTooLongException.class);
    }

    @Test
    void countIntoTalliesOccurrencesAndReturnsTheWordCount() {
        Map<String, Long> counts = new HashMap<>();
        long words = tokenizer.countInto("the cat and THE hat, the end", counts);
        assertThat(words).isEqualTo(7);
        assertThat(counts).containsEntry("the", 3L).containsEntry("cat", 1L).hasSize(5);
    }

    /** The table's escapes: {@code \\uXXXX} first (as javac reads them), then {@code \\t}, {@code \\n}. */
    private static String unescape(String text) {
        return UNICODE_ESCAPE
                .matcher(text)
                .replaceAll(u -> Matcher.quoteReplacement(String.valueOf((char) Integer.parseInt(u.group(1), 16))))
                .translateEscapes();
    }
}
