package dev.wordstats.service.web;

import dev.wordstats.service.WordstatsProperties;
import dev.wordstats.service.counts.WordCounting;
import dev.wordstats.service.counts.WordCounting.BatchResult;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Counting texts: {@code POST /api/texts} (text/plain or JSON) and {@code POST /api/texts/batch}.
 * The bodies are read by {@link RequestBodies} (size, UTF-8, JSON shape) and the whole request is
 * validated before a single word is counted.
 */
@RestController
class TextController {

    private final RequestBodies bodies;
    private final WordCounting counting;
    private final int maxBatchLines;

    TextController(RequestBodies bodies, WordCounting counting, WordstatsProperties properties) {
        this.bodies = bodies;
        this.counting = counting;
        this.maxBatchLines = properties.limits().maxBatchLines();
    }

    /** The words counted in one text. */
    record WordsCounted(long words) {}

    /** A text as JSON. */
    @Schema(additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
    record TextRequest(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            String text) {}

    /** A batch of lines as JSON (the most lines: wordstats.limits.max-batch-lines, set in the document). */
    @Schema(additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
    record BatchRequest(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED)
            List<String> lines) {}

    @Operation(
            summary = "Count the words of a UTF-8 text, sent as text/plain or as {\"text\": \"...\"}",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            required = true,
                            content =
                                    @Content(
                                            mediaType = MediaType.TEXT_PLAIN_VALUE,
                                            schema = @Schema(type = "string"))))
    @PostMapping(
            path = "/api/texts",
            consumes = MediaType.TEXT_PLAIN_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    // One OpenAPI operation with countJson: the same list, malformed-json included.
    @ProblemResponses({
        ProblemType.INVALID_UTF8,
        ProblemType.MALFORMED_JSON,
        ProblemType.INVALID_REQUEST,
        ProblemType.REQUEST_TIMEOUT,
        ProblemType.WORD_TOO_LONG,
        ProblemType.BODY_TOO_LARGE,
        ProblemType.UNSUPPORTED_MEDIA_TYPE,
        ProblemType.STORE_FULL
    })
    WordsCounted countPlain(HttpServletRequest request) {
        return new WordsCounted(counting.countText(bodies.text(request)));
    }

    @Operation(
            summary = "Count the words of a UTF-8 text, sent as text/plain or as {\"text\": \"...\"}",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            required = true,
                            content =
                                    @Content(
                                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                                            schema = @Schema(implementation = TextRequest.class))))
    @PostMapping(
            path = "/api/texts",
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    @ProblemResponses({
        ProblemType.INVALID_UTF8,
        ProblemType.MALFORMED_JSON,
        ProblemType.INVALID_REQUEST,
        ProblemType.REQUEST_TIMEOUT,
        ProblemType.WORD_TOO_LONG,
        ProblemType.BODY_TOO_LARGE,
        ProblemType.UNSUPPORTED_MEDIA_TYPE,
        ProblemType.STORE_FULL
    })
    WordsCounted countJson(HttpServletRequest request) {
        TextRequest body = bodies.json(request, TextRequest.class, "{\"text\": \"...\"}");
        if (body.text() == null) {
            throw new ApiException(ProblemType.INVALID_REQUEST, "the field 'text' is missing or null");
        }
        return new WordsCounted(counting.countText(body.text()));
    }

    @Operation(
            summary = "Count the words of many lines, worked through in parallel by virtual threads",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            required = true,
                            content =
                                    @Content(
                                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                                            schema = @Schema(implementation = BatchRequest.class))))
    @PostMapping(
            path = "/api/texts/batch",
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    @ProblemResponses({
        ProblemType.INVALID_UTF8,
        ProblemType.MALFORMED_JSON,
        ProblemType.INVALID_REQUEST,
        ProblemType.REQUEST_TIMEOUT,
        ProblemType.WORD_TOO_LONG,
        ProblemType.BODY_TOO_LARGE,
        ProblemType.TOO_MANY_LINES,
        ProblemType.UNSUPPORTED_MEDIA_TYPE,
        ProblemType.STORE_FULL
    })
    BatchResult countBatch(HttpServletRequest request) {
        BatchRequest body = bodies.json(request, BatchRequest.class, "{\"lines\": [\"...\", ...]}");
        List<String> lines = body.lines();
        if (lines == null) {
            throw new ApiException(ProblemType.INVALID_REQUEST, "the field 'lines' is missing or null");
        }
        if (lines.size() > maxBatchLines) {
            throw new ApiException(
                    ProblemType.TOO_MANY_LINES,
                    "the batch has " + lines.size() + " lines, more than the limit of " + maxBatchLines);
        }
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i) == null) {
                throw new ApiException(ProblemType.INVALID_REQUEST, "line " + i + " is null");
            }
        }
        return counting.countBatch(lines);
    }
}
