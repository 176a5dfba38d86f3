package dev.wordstats.loadtests;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TokensTest {

    @Test
    void splitsOnEverythingButLettersMarksAndDigitsAndLowerCases() {
        assertThat(Tokens.words("Hello, World! 42 times\nagain-and-again."))
                .containsExactly("hello", "world", "42", "times", "again", "and", "again");
    }

    @Test
    void singleApostropheBetweenLettersJoinsButQuotesDoNot() {
        assertThat(Tokens.words("don't 'quoted' it\u2019s o''clock"))
                .containsExactly("don't", "quoted", "it\u2019s", "o", "clock");
    }

    @Test
    void normalizesToNfcBeforeSplitting() {
        assertThat(Tokens.words("Cafe\u0301 CAFÉ")).containsExactly("café", "café");
    }

    @Test
    void emptyAndPunctuationOnlyTextsHaveNoWords() {
        assertThat(Tokens.words("")).isEmpty();
        assertThat(Tokens.words(" ... --- !!! ")).isEmpty();
    }
}
