package dev.wordstats.loadtests;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

/**
 * The client-side tokenizer against the rows of {@code spec/tokenizer-cases.tsv}, the cases the
 * service's {@code TokenizerTest} checks the service's tokenizer with: two independent
 * implementations, one table of cases.
 */
class TokensTest {

    private static final Pattern UNICODE_ESCAPE = Pattern.compile("\\\\u([0-9A-Fa-f]{4})");

    /**
     * One row of {@code spec/tokenizer-cases.tsv} (a test resource, see load-tests/pom.xml): name, text and the
     * expected words (space-separated; an empty cell reads as null), with Java escapes.
     */
    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/tokenizer-cases.tsv", delimiter = '\t', ignoreLeadingAndTrailingWhitespace = false)
    void findsTheWordsOfEachSharedCase(String name, String text, String words) {
        List<String> expected =
                words == null ? List.of() : List.of(unescape(words).split(" "));
        assertThat(Tokens.words(text == null ? "" : unescape(text))).containsExactlyElementsOf(expected);
    }

    /** The table's escapes: {@code \\uXXXX} first (as javac reads them), then {@code \\t}, {@code \\n}. */
    private static String unescape(String text) {
        return UNICODE_ESCAPE
                .matcher(text)
                .replaceAll(u -> Matcher.quoteReplacement(String.valueOf((char) Integer.parseInt(u.group(1), 16))))
                .translateEscapes();
    }
}
