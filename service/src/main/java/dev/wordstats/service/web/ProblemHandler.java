package dev.wordstats.service.web;

import dev.wordstats.service.counts.ClearRefusedException;
import dev.wordstats.service.counts.StoreFullException;
import dev.wordstats.service.text.WordTooLongException;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.multipart.MultipartException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every error as RFC 9457 {@code application/problem+json}, never with a stack trace. The API's own
 * problems carry a stable {@code type} URN ({@link ProblemType}); Spring MVC's (404, 405, 406, ...)
 * keep the standard status and {@code about:blank} unless listed here.
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

    @ExceptionHandler
    ResponseEntity<ProblemDetail> api(ApiException e) {
        return problem(e.type(), e.getMessage());
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> wordTooLong(WordTooLongException e) {
        ResponseEntity<ProblemDetail> response = problem(ProblemType.WORD_TOO_LONG, e.getMessage());
        response.getBody().setProperty("maxWordLength", e.maxLength());
        return response;
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> storeFull(StoreFullException e) {
        return problem(ProblemType.STORE_FULL, e.getMessage());
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> clearRefused(ClearRefusedException e) {
        return problem(ProblemType.CLEAR_REFUSED, e.getMessage());
    }

    /**
     * A query string Tomcat cannot parse (a parameter without a name, {@code ?=x}; a bad percent
     * escape, {@code ?limit=%zz}; too many parameters), met when a handler first reads a parameter.
     */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> malformedQuery(InvalidParameterException e) {
        return problem(
                ProblemType.INVALID_PARAMETER,
                "the query string is malformed (a parameter without a name, or a bad %-escape)");
    }

    /**
     * A multipart body that cannot be parsed. The API takes no multipart bodies and multipart
     * parsing is off ({@code spring.servlet.multipart.enabled: false}), so this is a safety net.
     */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> malformedMultipart(MultipartException e) {
        return problem(ProblemType.INVALID_REQUEST, "the multipart request could not be parsed");
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> unexpected(Exception e) {
        log.error("unexpected error", e);
        return problem(ProblemType.INTERNAL_ERROR, "an unexpected error occurred; see the service log");
    }

    /** Gives Spring MVC's own problems our type where one fits. */
    @Override
    protected @Nullable ResponseEntity<Object> handleExceptionInternal(
            Exception ex, @Nullable Object body, HttpHeaders headers, HttpStatusCode statusCode, WebRequest request) {
        ProblemDetail detail = body instanceof ProblemDetail given
                ? given
                : ex instanceof ErrorResponse response ? response.getBody() : null;
        if (detail != null) {
            ProblemType type = switch (ex) {
                case HttpMediaTypeNotSupportedException ignored -> ProblemType.UNSUPPORTED_MEDIA_TYPE;
                case TypeMismatchException ignored -> ProblemType.INVALID_PARAMETER;
                case MissingServletRequestParameterException ignored -> ProblemType.INVALID_PARAMETER;
                default -> null;
            };
            if (type != null) {
                detail.setType(type.uri());
                detail.setTitle(type.title());
            }
        }
        return super.handleExceptionInternal(ex, body, headers, statusCode, request);
    }

    private static ResponseEntity<ProblemDetail> problem(ProblemType type, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(type.status(), detail);
        problem.setType(type.uri());
        problem.setTitle(type.title());
        return ResponseEntity.status(type.status()).body(problem);
    }
}
