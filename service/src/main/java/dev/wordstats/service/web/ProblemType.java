package dev.wordstats.service.web;

import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;

/**
 * The problem types of the API (RFC 9457 {@code type} members). Each is a stable URN,
 * {@code urn:wordstats:problem:<name>}: clients may switch on it; the {@code detail} text may change.
 */
enum ProblemType {
    BODY_TOO_LARGE("body-too-large", HttpStatus.CONTENT_TOO_LARGE, "Request body too large"),
    // 400, not 413: the document states the bound (maxItems), so a batch over it is a request that
    // violates the schema, as a limit out of range is; 413 is for the body size, which it cannot state.
    TOO_MANY_LINES("too-many-lines", HttpStatus.BAD_REQUEST, "Too many lines in the batch"),
    INVALID_UTF8("invalid-utf8", HttpStatus.BAD_REQUEST, "Request body is not valid UTF-8"),
    MALFORMED_JSON("malformed-json", HttpStatus.BAD_REQUEST, "Malformed JSON body"),
    INVALID_REQUEST("invalid-request", HttpStatus.BAD_REQUEST, "Invalid request"),
    INVALID_PARAMETER("invalid-parameter", HttpStatus.BAD_REQUEST, "Invalid parameter"),
    LIMIT_OUT_OF_RANGE("limit-out-of-range", HttpStatus.BAD_REQUEST, "limit out of range"),
    WORD_TOO_LONG("word-too-long", HttpStatus.BAD_REQUEST, "Word too long"),
    NOT_ONE_WORD("not-one-word", HttpStatus.BAD_REQUEST, "Not exactly one word"),
    UNSUPPORTED_MEDIA_TYPE("unsupported-media-type", HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported media type"),
    UNAUTHORIZED("unauthorized", HttpStatus.UNAUTHORIZED, "Credential required"),
    // 408: the client stalled mid-request for server.tomcat.connection-timeout (Tomcat cuts it off).
    REQUEST_TIMEOUT("request-timeout", HttpStatus.REQUEST_TIMEOUT, "Request timed out"),
    // 409: the request is fine, the store's state (its distinct-word cap reached) is not; never a 5xx.
    STORE_FULL("store-full", HttpStatus.CONFLICT, "Distinct-word limit reached"),
    // 409: the request is fine, the data directory's state (a snapshot that cannot be removed) is not.
    CLEAR_REFUSED("clear-refused", HttpStatus.CONFLICT, "Counts not cleared"),
    INTERNAL_ERROR("internal-error", HttpStatus.INTERNAL_SERVER_ERROR, "Internal error");

    static final String PREFIX = "urn:wordstats:problem:";

    private final URI uri;
    private final HttpStatusCode status;
    private final String title;

    ProblemType(String name, HttpStatusCode status, String title) {
        this.uri = URI.create(PREFIX + name);
        this.status = status;
        this.title = title;
    }

    URI uri() {
        return uri;
    }

    HttpStatusCode status() {
        return status;
    }

    String title() {
        return title;
    }
}
