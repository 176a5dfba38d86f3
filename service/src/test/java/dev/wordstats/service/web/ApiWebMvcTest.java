package dev.wordstats.service.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.wordstats.service.TestCredential;
import dev.wordstats.service.counts.WordStore;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

/**
 * Every endpoint and every bad-input case, over the web layer with a real {@link WordStore}: a
 * rejected request must answer problem+json with the documented type and leave the counts as they were.
 */
@WebMvcTest(
        controllers = {TextController.class, WordController.class, StatsController.class},
        properties = {
            "wordstats.limits.max-body-bytes=1KB",
            "wordstats.limits.max-batch-lines=5",
            "wordstats.limits.max-distinct-words=20",
            "wordstats.batch.parallelism=3"
        })
@Import(WebSliceConfiguration.class)
class ApiWebMvcTest {

    private static final MediaType PROBLEM = MediaType.APPLICATION_PROBLEM_JSON;

    @Autowired
    MockMvc mvc;

    @Autowired
    WordStore store;

    @BeforeEach
    void startEmptyWithSomeCounts() throws Exception {
        store.clear();
        postText("alpha beta beta").andExpect(status().isOk());
    }

    // ---- happy paths -------------------------------------------------------------------------

    @Test
    void plainTextIsCountedAndAnswersTheWordCount() throws Exception {
        postText("Don't panic, DON'T panic!")
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
                .andExpect(jsonPath("$.words").value(4));
        assertThat(store.count("don't")).isEqualTo(2);
        assertThat(store.count("panic")).isEqualTo(2);
    }

    @Test
    void plainTextWithUtf8CharsetIsAccepted() throws Exception {
        mvc.perform(post("/api/texts")
                        .contentType("text/plain;charset=UTF-8")
                        .content("caf\u00E9".getBytes(StandardCharsets.UTF_8)))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.words").value(1));
        assertThat(store.count("caf\u00E9")).isEqualTo(1);
    }

    @Test
    void jsonTextIsCounted() throws Exception {
        postJson("/api/texts", "{\"text\": \"gamma Gamma delta\"}")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.words").value(3));
        assertThat(store.count("gamma")).isEqualTo(2);
    }

    @Test
    void batchCountsEveryLineAndReportsLinesWordsAndTime() throws Exception {
        postJson("/api/texts/batch", "{\"lines\": [\"one two\", \"two three three\", \"\", \"one\"]}")
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.lines").value(4))
                .andExpect(jsonPath("$.words").value(6))
                .andExpect(jsonPath("$.elapsedMillis").value(greaterThanOrEqualTo(0)));
        assertThat(Map.of("one", store.count("one"), "two", store.count("two"), "three", store.count("three")))
                .isEqualTo(Map.of("one", 2L, "two", 2L, "three", 2L));
        assertThat(store.total()).isEqualTo(3 + 6);
    }

    @Test
    void wordLookupNormalizesByTheTokenizerRules() throws Exception {
        postText("Caf\u00E9 cafe\u0301").andExpect(status().isOk());
        mvc.perform(get("/api/words/{word}", "CAFE\u0301"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.word").value("caf\u00E9"))
                .andExpect(jsonPath("$.count").value(2));
    }

    /**
     * The API documents the word limit (100 here) on the word as sent; lower-casing 100 {@code İ}
     * gives 200 code points. Such a word is looked up, not rejected: no text can hold it, so 0.
     */
    @Test
    void aWordThatOnlyLowerCasingTakesPastTheLimitCountsZero() throws Exception {
        mvc.perform(get("/api/words/{word}", "\u0130".repeat(100)))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.word").value("i\u0307".repeat(100)))
                .andExpect(jsonPath("$.count").value(0));
    }

    @Test
    void unseenWordCountsZero() throws Exception {
        mvc.perform(get("/api/words/{word}", "never"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.word").value("never"))
                .andExpect(jsonPath("$.count").value(0));
    }

    @Test
    void topOrdersByCountDescendingThenWordAscending() throws Exception {
        postText("zeta zeta zeta beta gamma").andExpect(status().isOk());
        // beta 3, zeta 3, alpha 1, gamma 1
        mvc.perform(get("/api/words/top").param("limit", "3"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.length()").value(3))
                .andExpect(jsonPath("$[0].word").value("beta"))
                .andExpect(jsonPath("$[0].count").value(3))
                .andExpect(jsonPath("$[1].word").value("zeta"))
                .andExpect(jsonPath("$[2].word").value("alpha"));
    }

    @Test
    void topDefaultsToTenWords() throws Exception {
        postText(IntStream.range(0, 12).mapToObj(i -> "w" + i).collect(Collectors.joining(" ")))
                .andExpect(status().isOk());
        mvc.perform(get("/api/words/top"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.length()").value(10));
    }

    @Test
    void deleteClearsEveryCount() throws Exception {
        mvc.perform(delete("/api/words").header("Authorization", TestCredential.basic()))
                .andExpect(status().isNoContent());
        assertThat(store.total()).isZero();
        assertThat(store.distinct()).isZero();
        mvc.perform(get("/api/words/{word}", "beta"))
                .andExpect(jsonPath("$.count").value(0));
    }

    @Test
    void statsReportTotalsLockAndThreads() throws Exception {
        mvc.perform(get("/api/stats"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.totalWords").value(3))
                .andExpect(jsonPath("$.distinctWords").value(2))
                .andExpect(jsonPath("$.wordsCounted").value(greaterThanOrEqualTo(3)))
                .andExpect(jsonPath("$.lockType").value("NUMA_MONITOR")) // the default
                .andExpect(jsonPath("$.stripes").value(64))
                .andExpect(jsonPath("$.nodes").value(greaterThanOrEqualTo(1)))
                .andExpect(jsonPath("$.topology").isString())
                .andExpect(jsonPath("$.threadKind").value("virtual"));
    }

    @Test
    void getWithAMultipartContentTypeAndNoBoundaryIsAnsweredNormally() throws Exception {
        // No body is read on a GET and multipart parsing is off, so the header changes nothing.
        for (String path : List.of("/api/stats", "/api/words/alpha")) {
            mvc.perform(get(path).contentType("multipart/form-data")).andExpect(status().isOk());
        }
    }

    @Test
    void postWithAMultipartContentTypeIs415() throws Exception {
        mvc.perform(post("/api/texts").contentType("multipart/form-data").content("gamma"))
                .andExpect(status().isUnsupportedMediaType())
                .andExpect(jsonPath("$.type").value("urn:wordstats:problem:unsupported-media-type"));
        assertThat(store.count("gamma")).isZero();
    }

    // ---- bad input: problem+json, documented type, nothing changed -----------------------------

    @Nested
    class BadInput {

        private Snapshot before;

        @BeforeEach
        void snapshot() {
            before = Snapshot.of(store);
        }

        private ResultActions expectProblem(ResultActions result, int status, String type) throws Exception {
            return result(result, status).andExpect(jsonPath("$.type").value("urn:wordstats:problem:" + type));
        }

        /** A problem+json answer with {@code status}, no stack trace, and the counts unchanged. */
        private ResultActions result(ResultActions result, int status) throws Exception {
            result.andExpect(status().is(status))
                    .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                    .andExpect(jsonPath("$.status").value(status))
                    .andExpect(jsonPath("$.detail").isString())
                    .andExpect(content().string(not(containsString("Exception"))))
                    .andExpect(content().string(not(containsString("\tat "))));
            assertThat(Snapshot.of(store)).as("counts after a rejected request").isEqualTo(before);
            return result;
        }

        @Test
        void plainBodyOverTheLimitIs413() throws Exception {
            expectProblem(postText("word ".repeat(205)), 413, "body-too-large"); // 1025 bytes > 1KB
        }

        @Test
        void batchBodyOverTheLimitIs413() throws Exception {
            String line = "x".repeat(600);
            expectProblem(
                    postJson("/api/texts/batch", "{\"lines\": [\"" + line + "\", \"" + line + "\"]}"),
                    413,
                    "body-too-large");
        }

        @Test
        void invalidUtf8Is400() throws Exception {
            byte[] body = {'o', 'k', ' ', (byte) 0xC3, (byte) 0x28, ' ', 'x'
            }; // 0xC3 must be followed by a continuation byte
            expectProblem(
                    mvc.perform(
                            post("/api/texts").contentType(MediaType.TEXT_PLAIN).content(body)),
                    400,
                    "invalid-utf8");
        }

        @Test
        void overlongUtf8EncodingIs400() throws Exception {
            byte[] body = {(byte) 0xC0, (byte) 0xAF}; // overlong '/'
            expectProblem(
                    mvc.perform(
                            post("/api/texts").contentType(MediaType.TEXT_PLAIN).content(body)),
                    400,
                    "invalid-utf8");
        }

        @Test
        void invalidUtf8InJsonIs400() throws Exception {
            byte[] body = {'{', '"', 't', 'e', 'x', 't', '"', ':', '"', (byte) 0xFF, '"', '}'};
            expectProblem(
                    mvc.perform(post("/api/texts")
                            .contentType(MediaType.APPLICATION_JSON)
                            .content(body)),
                    400,
                    "invalid-utf8");
        }

        @Test
        void malformedJsonIs400() throws Exception {
            expectProblem(postJson("/api/texts", "{\"text\": \"gamma"), 400, "malformed-json");
        }

        @Test
        void jsonOfTheWrongShapeIs400() throws Exception {
            expectProblem(postJson("/api/texts/batch", "{\"lines\": \"gamma\"}"), 400, "malformed-json");
        }

        @Test
        void numberWhereTheTextBelongsIs400() throws Exception {
            expectProblem(postJson("/api/texts", "{\"text\": 5}"), 400, "malformed-json")
                    .andExpect(jsonPath("$.detail").value(containsString("'text' is a number, not a string")));
        }

        @Test
        void booleanWhereTheTextBelongsIs400() throws Exception {
            expectProblem(postJson("/api/texts", "{\"text\": true}"), 400, "malformed-json");
        }

        @Test
        void numberAmongTheBatchLinesIs400AndNoLineIsCounted() throws Exception {
            expectProblem(postJson("/api/texts/batch", "{\"lines\": [\"ok line\", 5]}"), 400, "malformed-json")
                    .andExpect(jsonPath("$.detail").value(containsString("'lines[1]' is a number")));
        }

        @Test
        void objectOrArrayWhereAStringBelongsIs400() throws Exception {
            expectProblem(postJson("/api/texts", "{\"text\": [\"gamma\"]}"), 400, "malformed-json");
            expectProblem(postJson("/api/texts", "{\"text\": {\"gamma\": 1}}"), 400, "malformed-json");
            expectProblem(postJson("/api/texts/batch", "{\"lines\": [{}]}"), 400, "malformed-json");
            expectProblem(postJson("/api/texts/batch", "{\"lines\": [[\"gamma\"]]}"), 400, "malformed-json");
        }

        @Test
        void unknownFieldIs400() throws Exception {
            expectProblem(postJson("/api/texts", "{\"text\": \"gamma\", \"lang\": \"en\"}"), 400, "malformed-json")
                    .andExpect(jsonPath("$.detail").value(containsString("'lang' is not a field")));
        }

        @Test
        void fieldGivenTwiceIs400() throws Exception {
            expectProblem(postJson("/api/texts", "{\"text\": \"gamma\", \"text\": \"delta\"}"), 400, "malformed-json");
        }

        @Test
        void contentAfterTheDocumentIs400() throws Exception {
            expectProblem(postJson("/api/texts", "{\"text\": \"gamma\"} {\"text\": \"delta\"}"), 400, "malformed-json");
        }

        @Test
        void documentThatIsNotAnObjectIs400() throws Exception {
            expectProblem(postJson("/api/texts", "\"gamma\""), 400, "malformed-json");
            expectProblem(postJson("/api/texts", "null"), 400, "malformed-json");
            expectProblem(postJson("/api/texts/batch", "[\"gamma\"]"), 400, "malformed-json");
        }

        @Test
        void acceptThatExcludesJsonIs406() throws Exception {
            result(mvc.perform(get("/api/stats").accept(MediaType.TEXT_HTML)), 406);
            result(mvc.perform(get("/api/words/top").accept(MediaType.TEXT_HTML)), 406);
        }

        @Test
        void jsonWithoutTextIs400() throws Exception {
            expectProblem(postJson("/api/texts", "{}"), 400, "invalid-request");
            expectProblem(postJson("/api/texts", "{\"text\": null}"), 400, "invalid-request");
        }

        @Test
        void misspeltFieldIsAnUnknownFieldNotAMissingOne() throws Exception {
            expectProblem(postJson("/api/texts", "{\"txt\": \"gamma\"}"), 400, "malformed-json")
                    .andExpect(jsonPath("$.detail").value(containsString("'txt' is not a field")));
        }

        @Test
        void batchWithANullLineIs400() throws Exception {
            expectProblem(postJson("/api/texts/batch", "{\"lines\": [\"gamma\", null]}"), 400, "invalid-request");
        }

        @Test
        void unsupportedMediaTypeIs415() throws Exception {
            expectProblem(
                    mvc.perform(post("/api/texts")
                            .contentType(MediaType.APPLICATION_XML)
                            .content("<text>gamma</text>")),
                    415,
                    "unsupported-media-type");
        }

        @Test
        void missingContentTypeIs415() throws Exception {
            expectProblem(mvc.perform(post("/api/texts").content("gamma")), 415, "unsupported-media-type");
        }

        @Test
        void nonUtf8CharsetIs415() throws Exception {
            expectProblem(
                    mvc.perform(post("/api/texts")
                            .contentType("text/plain;charset=ISO-8859-1")
                            .content("caf\u00E9".getBytes(StandardCharsets.ISO_8859_1))),
                    415,
                    "unsupported-media-type");
        }

        @Test
        void wordOverTheLengthLimitIs400AndTheRestOfTheTextIsNotCounted() throws Exception {
            expectProblem(postText("gamma delta " + "a".repeat(101)), 400, "word-too-long");
        }

        @Test
        void wordOverTheLengthLimitInTheLastBatchLineIs400AndNoLineIsCounted() throws Exception {
            expectProblem(
                    postJson(
                            "/api/texts/batch",
                            "{\"lines\": [\"gamma\", \"delta\", \"epsilon\", \"" + "b".repeat(101) + "\"]}"),
                    400,
                    "word-too-long");
        }

        @Test
        void batchOverTheLineLimitIs400AsTheDocumentedMaxItemsSays() throws Exception {
            expectProblem(
                    postJson("/api/texts/batch", "{\"lines\": [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\"]}"),
                    400,
                    "too-many-lines");
        }

        @Test
        void topLimitOfZeroIs400() throws Exception {
            expectProblem(mvc.perform(get("/api/words/top").param("limit", "0")), 400, "limit-out-of-range");
        }

        @Test
        void topLimitOverAThousandIs400() throws Exception {
            expectProblem(mvc.perform(get("/api/words/top").param("limit", "1001")), 400, "limit-out-of-range");
        }

        @Test
        void topLimitThatIsNotANumberIs400() throws Exception {
            expectProblem(mvc.perform(get("/api/words/top").param("limit", "ten")), 400, "invalid-parameter");
        }

        @ParameterizedTest
        @ValueSource(strings = {"", " ", "1.5", "+5", "0x10", "10 ", "1e2"})
        void topLimitThatIsNotADecimalIntegerIs400NotTheDefault(String limit) throws Exception {
            expectProblem(mvc.perform(get("/api/words/top").param("limit", limit)), 400, "invalid-parameter");
        }

        @Test
        void topLimitBeyondTheIntRangeIsOutOfRange() throws Exception {
            expectProblem(
                    mvc.perform(get("/api/words/top").param("limit", "99999999999999999999")),
                    400,
                    "limit-out-of-range");
            expectProblem(
                    mvc.perform(get("/api/words/top").param("limit", "-99999999999999999999")),
                    400,
                    "limit-out-of-range");
        }

        @ParameterizedTest
        @ValueSource(strings = {"$a\u0001", "'quoted'", "beta!", "don''t", "-beta", "beta\u2019"})
        void wordLookupOfAWordThePatternForbidsIs400EvenIfTheTokenizerFindsOneWord(String word) throws Exception {
            expectProblem(mvc.perform(get("/api/words/{word}", word)), 400, "not-one-word");
        }

        @Test
        void wordLookupOfAnApostropheWordWithAMarkAfterTheApostropheIsOneWord() throws Exception {
            mvc.perform(get("/api/words/{word}", "Be'\u0301ta"))
                    .andExpect(status().isOk())
                    .andExpect(jsonPath("$.word").value("be'\u0301ta"))
                    .andExpect(jsonPath("$.count").value(0));
        }

        @Test
        void wordLookupOfTwoWordsIs400() throws Exception {
            expectProblem(mvc.perform(get("/api/words/{word}", "two words")), 400, "not-one-word");
        }

        @Test
        void wordLookupOfNoWordIs400() throws Exception {
            expectProblem(mvc.perform(get("/api/words/{word}", "!!")), 400, "not-one-word");
        }

        @Test
        void wordLookupOverTheLengthLimitIs400() throws Exception {
            expectProblem(mvc.perform(get("/api/words/{word}", "c".repeat(101))), 400, "word-too-long");
        }

        @Test
        void newWordsPastTheDistinctCapAre409AndKnownWordsStillCount() throws Exception {
            // 2 distinct words held; fill up to the cap of 20.
            postText(IntStream.range(0, 18).mapToObj(i -> "fill" + i).collect(Collectors.joining(" ")))
                    .andExpect(status().isOk());
            before = Snapshot.of(store);
            expectProblem(postText("alpha brandnew"), 409, "store-full");
            expectProblem(postJson("/api/texts/batch", "{\"lines\": [\"alpha\", \"brandnew\"]}"), 409, "store-full");
            postText("alpha fill3").andExpect(status().isOk());
            assertThat(store.count("alpha")).isEqualTo(2);
        }
    }

    private ResultActions postText(String text) throws Exception {
        return mvc.perform(
                post("/api/texts").contentType(MediaType.TEXT_PLAIN).content(text.getBytes(StandardCharsets.UTF_8)));
    }

    private ResultActions postJson(String path, String json) throws Exception {
        MockHttpServletRequestBuilder request =
                post(path).contentType(MediaType.APPLICATION_JSON).content(json.getBytes(StandardCharsets.UTF_8));
        return mvc.perform(request);
    }

    /** What a rejected request must not change. */
    record Snapshot(long total, long distinct, long wordsCounted, List<Map.Entry<String, Long>> all) {
        static Snapshot of(WordStore store) {
            return new Snapshot(store.total(), store.distinct(), store.wordsCounted(), store.top(1000));
        }
    }
}
