package dev.wordstats.service.web;

import dev.wordstats.service.counts.StoreSnapshots;
import dev.wordstats.service.counts.WordStore;
import dev.wordstats.service.text.Tokenizer;
import dev.wordstats.service.text.WordTooLongException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Reading and clearing the counts. */
@RestController
class WordController {

    static final int MAX_LIMIT = 1000;

    /**
     * One word as the tokenizer sees it, in the syntax both ECMA-262 (with Unicode property escapes,
     * as OpenAPI patterns are) and {@link java.util.regex.Pattern} read the same way: the classes
     * are the tokenizer's word code points, Unicode categories L, M and Nd. The document states this
     * pattern and {@link #count} checks the word against it, compiled here, before the tokenizer
     * sees it; a word that matches is one word to the tokenizer (checked for every code point and
     * over generated words by {@code WordPatternAgreesWithTheTokenizerTest}).
     */
    static final String WORD_PATTERN = "^[\\p{L}\\p{M}\\p{Nd}]+(['\u2019][\\p{L}\\p{M}\\p{Nd}]+)*$";

    private static final Pattern WORD = Pattern.compile(WORD_PATTERN);

    private final WordStore store;
    private final StoreSnapshots snapshots;
    private final Tokenizer tokenizer;
    private final Tokenizer unlimited = new Tokenizer(Integer.MAX_VALUE); // see wordsOf

    WordController(WordStore store, StoreSnapshots snapshots, Tokenizer tokenizer) {
        this.store = store;
        this.snapshots = snapshots;
        this.tokenizer = tokenizer;
    }

    /** A word and its count. */
    record WordCount(String word, long count) {}

    @Operation(summary = "The most counted words: count descending, then word ascending")
    @GetMapping(path = "/api/words/top", produces = MediaType.APPLICATION_JSON_VALUE)
    @ProblemResponses({ProblemType.LIMIT_OUT_OF_RANGE, ProblemType.INVALID_PARAMETER})
    List<WordCount> top(
            // Bounds for the document only: the check below gives the API's own problem type.
            @Parameter(
                            description = "how many words, from 1 to " + MAX_LIMIT,
                            schema = @Schema(type = "integer", minimum = "1", maximum = "1000", defaultValue = "10"))
                    @RequestParam(name = "limit", required = false)
                    String limitParameter) {
        int limit = limit(limitParameter);
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new ApiException(
                    ProblemType.LIMIT_OUT_OF_RANGE, "limit must be from 1 to " + MAX_LIMIT + ", was " + limitParameter);
        }
        return store.top(limit).stream()
                .map(e -> new WordCount(e.getKey(), e.getValue()))
                .toList();
    }

    /**
     * The {@code limit} parameter: absent means 10; anything but an integer in decimal (an empty
     * value, {@code 1.5}, {@code ten}) is an invalid parameter, not the default; an integer out of
     * range gives {@link Integer#MIN_VALUE} or {@link Integer#MAX_VALUE}, which the range check refuses.
     */
    private static int limit(String parameter) {
        if (parameter == null) {
            return 10;
        }
        if (!INTEGER.matcher(parameter).matches()) {
            throw new ApiException(
                    ProblemType.INVALID_PARAMETER,
                    "limit must be an integer from 1 to " + MAX_LIMIT + ", was '" + parameter + "'");
        }
        try {
            return Integer.parseInt(parameter);
        } catch (NumberFormatException e) {
            return parameter.startsWith("-") ? Integer.MIN_VALUE : Integer.MAX_VALUE;
        }
    }

    private static final Pattern INTEGER = Pattern.compile("-?[0-9]+");

    @Operation(summary = "The count of one word (normalized by the tokenizer rules; 0 when unseen)")
    @GetMapping(path = "/api/words/{word}", produces = MediaType.APPLICATION_JSON_VALUE)
    @ProblemResponses({ProblemType.NOT_ONE_WORD, ProblemType.WORD_TOO_LONG})
    WordCount count(
            @Parameter(
                            description = "one word by the tokenizer rules: letters, marks and decimal digits, "
                                    + "an apostrophe (' or \u2019) only between two runs; it is looked up "
                                    + "NFC-normalized and lower-cased, as texts are counted",
                            schema = @Schema(type = "string", minLength = 1, pattern = WORD_PATTERN))
                    @PathVariable("word")
                    String word) {
        if (!WORD.matcher(word).matches()) {
            throw new ApiException(
                    ProblemType.NOT_ONE_WORD,
                    "'" + word + "' is not one word: letters, marks and decimal digits, an apostrophe only "
                            + "between two runs (pattern " + WORD_PATTERN + ")");
        }
        List<String> words = wordsOf(word);
        if (words.size() != 1) {
            throw new ApiException(
                    ProblemType.NOT_ONE_WORD,
                    "'" + word + "' is " + words.size() + " words by the tokenizer rules, not exactly one");
        }
        String normalized = words.getFirst();
        return new WordCount(normalized, store.count(normalized));
    }

    /**
     * The words of a looked-up word. The API documents the length limit on the word as sent (the
     * parameter's maxLength), the tokenizer applies it after lower-casing, which can lengthen a word
     * ({@code İ} becomes i + U+0307). A word within the documented limit that only lower-casing takes
     * past it is looked up like any other: no text can have counted it, as the same rule rejects a
     * text that holds it, so its count is 0.
     */
    private List<String> wordsOf(String word) {
        try {
            return tokenizer.words(word);
        } catch (WordTooLongException e) {
            if (word.codePointCount(0, word.length()) > tokenizer.maxWordLength()) {
                throw e;
            }
            return unlimited.words(word);
        }
    }

    @Operation(summary = "Clear all counts and their snapshot in the data directory (needs the credential)")
    @ApiResponse(responseCode = "204", description = "every count cleared")
    @ProblemResponses({ProblemType.UNAUTHORIZED, ProblemType.CLEAR_REFUSED})
    @SecurityRequirement(name = OpenApiConfiguration.BASIC_AUTH)
    @DeleteMapping("/api/words")
    ResponseEntity<Void> clear() {
        snapshots.clear();
        return ResponseEntity.noContent().build();
    }
}
