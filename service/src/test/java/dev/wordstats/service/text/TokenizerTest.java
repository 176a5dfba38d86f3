package dev.wordstats.service.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pins the tokenizer spec of ARCHITECTURE.md: NFC, runs of L/M/Nd, single apostrophes join, ROOT lower case,
 * length in code points.
 */
class TokenizerTest {

    private final Tokenizer tokenizer = new Tokenizer(100);

    @Test
    void splitsOnSpacesAndPunctuation() {
        assertThat(tokenizer.words("Hello, world! How are-you?"))
                .containsExactly("hello", "world", "how", "are", "you");
    }

    @Test
    void asciiApostropheBetweenLettersJoinsTheWord() {
        assertThat(tokenizer.words("don't won't")).containsExactly("don't", "won't");
    }

    @Test
    void typographicApostropheBetweenLettersJoinsTheWordAndIsKept() {
        assertThat(tokenizer.words("Don\u2019t")).containsExactly("don\u2019t");
        assertThat(tokenizer.words("don\u2019t don't")).containsExactly("don\u2019t", "don't");
    }

    @Test
    void leadingAndTrailingApostrophesAreNotPartOfTheWord() {
        assertThat(tokenizer.words("'quoted' \u2019also\u2019 dogs' 'n"))
                .containsExactly("quoted", "also", "dogs", "n");
    }

    @Test
    void doubleApostropheSeparates() {
        assertThat(tokenizer.words("a''b c\u2019'd")).containsExactly("a", "b", "c", "d");
    }

    @Test
    void severalSingleApostrophesJoinSeveralRuns() {
        assertThat(tokenizer.words("rock'n'roll o'clock's")).containsExactly("rock'n'roll", "o'clock's");
    }

    @Test
    void otherQuoteCharactersSeparate() {
        // U+2018 (left single quote) and U+02BC (modifier letter apostrophe, category Lm: a letter) differ.
        assertThat(tokenizer.words("don\u2018t")).containsExactly("don", "t");
        assertThat(tokenizer.words("don\u02BCt")).containsExactly("don\u02BCt");
    }

    @Test
    void decimalDigitsAreWordCharacters() {
        assertThat(tokenizer.words("route 66, 3.14 and x2")).containsExactly("route", "66", "3", "14", "and", "x2");
    }

    @Test
    void nonDecimalNumbersSeparate() {
        // ² is No, Ⅻ is Nl: neither is Nd.
        assertThat(tokenizer.words("x²y \u216B")).containsExactly("x", "y");
    }

    @Test
    void arabicIndicDigitsAreDecimalDigits() {
        assertThat(tokenizer.words("\u0661\u0662\u0663")).containsExactly("\u0661\u0662\u0663");
    }

    @Test
    void combiningMarksStayInTheWord() {
        // Devanagari namaste: consonants with a virama and a vowel sign, both marks (Mn).
        assertThat(tokenizer.words("\u0928\u092E\u0938\u094D\u0924\u0947 x"))
                .containsExactly("\u0928\u092E\u0938\u094D\u0924\u0947", "x");
    }

    @Test
    void composedAndDecomposedInputGiveTheSameNfcWord() {
        String composed = "caf\u00E9";
        String decomposed = "cafe\u0301";
        assertThat(tokenizer.words(decomposed)).containsExactly(composed);
        assertThat(tokenizer.words(composed)).containsExactly(composed);
    }

    @Test
    void lowerCasesWithRootLocaleSoTurkishDottedCapitalIKeepsItsDot() {
        // İ (U+0130) lower-cases under ROOT to i + combining dot above (U+0307), not to a plain i.
        assertThat(tokenizer.words("\u0130stanbul")).containsExactly("i\u0307stanbul");
        // Dotless ı stays ı; plain I becomes plain i (no Turkish rules).
        assertThat(tokenizer.words("I \u0131")).containsExactly("i", "\u0131");
    }

    @Test
    void upperAndMixedCaseFoldToOneWord() {
        assertThat(tokenizer.words("Word WORD word wOrD")).containsOnly("word").hasSize(4);
    }

    @Test
    void cjkIdeographsAreLetters() {
        // No dictionary segmentation: a run of ideographs is one word.
        assertThat(tokenizer.words("\u4F60\u597D\u3001\u4E16\u754C")).containsExactly("\u4F60\u597D", "\u4E16\u754C");
    }

    @Test
    void emojiIsNotAWordAndSeparates() {
        assertThat(tokenizer.words("\uD83D\uDE00")).isEmpty();
        assertThat(tokenizer.words("hi\uD83D\uDE00there \uD83D\uDC4D\uD83C\uDFFD"))
                .containsExactly("hi", "there");
    }

    @Test
    void emptyAndSeparatorOnlyTextHasNoWords() {
        assertThat(tokenizer.words("")).isEmpty();
        assertThat(tokenizer.words(" \t\n.,;'\u2019-")).isEmpty();
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
}
