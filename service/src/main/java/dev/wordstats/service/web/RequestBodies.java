package dev.wordstats.service.web;

import dev.wordstats.service.WordstatsProperties;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;

/**
 * Reads request bodies under the API's rules, before anything is counted: at most
 * {@code wordstats.limits.max-body-bytes} bytes (a larger declared Content-Length is refused at once,
 * and the stream is cut off while reading, so a chunked or lying request cannot pass it), strictly
 * valid UTF-8 (a malformed or unmappable sequence is refused, never replaced), and for JSON a
 * well-formed document of the expected shape.
 */
@Component
class RequestBodies {

    private final int maxBytes;
    private final ObjectMapper json;

    RequestBodies(WordstatsProperties properties, ObjectMapper json) {
        this.maxBytes = (int) properties.limits().maxBodyBytes().toBytes();
        this.json = json;
    }

    /** The body as text; its declared charset, if any, must be UTF-8. */
    String text(HttpServletRequest request) {
        requireUtf8Charset(request);
        return decodeUtf8(bytes(request));
    }

    /** The body as a JSON document bound to {@code type}. */
    <T> T json(HttpServletRequest request, Class<T> type, String expectedShape) {
        String body = text(request);
        try {
            T value = json.readValue(body, type);
            if (value == null) {
                throw new ApiException(
                        ProblemType.MALFORMED_JSON, "expected a JSON object of the form " + expectedShape);
            }
            return value;
        } catch (JacksonException e) {
            throw new ApiException(
                    ProblemType.MALFORMED_JSON,
                    "the body is not a JSON object of the form " + expectedShape + locationOf(e));
        }
    }

    private byte[] bytes(HttpServletRequest request) {
        long declared = request.getContentLengthLong();
        if (declared > maxBytes) {
            throw tooLarge();
        }
        try (InputStream in = request.getInputStream()) {
            byte[] body = in.readNBytes(maxBytes + 1);
            if (body.length > maxBytes) {
                throw tooLarge();
            }
            return body;
        } catch (IOException e) {
            throw new ApiException(ProblemType.INVALID_REQUEST, "the request body could not be read");
        }
    }

    private ApiException tooLarge() {
        return new ApiException(
                ProblemType.BODY_TOO_LARGE, "the request body is larger than the limit of " + maxBytes + " bytes");
    }

    private static void requireUtf8Charset(HttpServletRequest request) {
        String contentType = request.getContentType();
        if (contentType == null) {
            return;
        }
        Charset charset;
        try {
            charset = MediaType.parseMediaType(contentType).getCharset();
        } catch (IllegalArgumentException e) { // InvalidMediaTypeException, or an unknown charset
            throw new ApiException(
                    ProblemType.UNSUPPORTED_MEDIA_TYPE,
                    "the charset of '" + contentType + "' is not supported; use UTF-8");
        }
        if (charset != null && !charset.equals(StandardCharsets.UTF_8)) {
            throw new ApiException(
                    ProblemType.UNSUPPORTED_MEDIA_TYPE, "charset " + charset.name() + " is not supported; send UTF-8");
        }
    }

    static String decodeUtf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new ApiException(ProblemType.INVALID_UTF8, "the request body is not valid UTF-8");
        }
    }

    private static String locationOf(JacksonException e) {
        var location = e.getLocation();
        return location == null || location.getLineNr() < 1
                ? ""
                : " (problem at line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }
}
