package dev.wordstats.loadtests;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The service's tokenizer rules, re-implemented on the client so a simulation knows how many words
 * each text it posts counts for: NFC; a word is a maximal run of code points of categories L, M or
 * Nd; one apostrophe (U+0027 or U+2019) between two such runs joins them; lower-cased with
 * {@link Locale#ROOT}. The generated corpus is plain ASCII, so this is exact for it.
 */
final class Tokens {

    private Tokens() {}

    static List<String> words(String text) {
        String s = Normalizer.normalize(text, Normalizer.Form.NFC);
        List<String> words = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int i = 0;
        while (i < s.length()) {
            int cp = s.codePointAt(i);
            int next = i + Character.charCount(cp);
            if (isWordCodePoint(cp)) {
                current.appendCodePoint(cp);
            } else if (isApostrophe(cp)
                    && !current.isEmpty()
                    && next < s.length()
                    && isWordCodePoint(s.codePointAt(next))) {
                current.appendCodePoint(cp);
            } else if (!current.isEmpty()) {
                words.add(current.toString().toLowerCase(Locale.ROOT));
                current.setLength(0);
            }
            i = next;
        }
        if (!current.isEmpty()) {
            words.add(current.toString().toLowerCase(Locale.ROOT));
        }
        return words;
    }

    private static boolean isApostrophe(int cp) {
        return cp == '\'' || cp == '\u2019';
    }

    private static boolean isWordCodePoint(int cp) {
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
}
