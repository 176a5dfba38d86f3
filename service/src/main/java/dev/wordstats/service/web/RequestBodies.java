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
import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

/**
 * Reads request bodies under the API's rules, before anything is counted: at most
 * {@code wordstats.limits.max-body-bytes} bytes (a larger declared Content-Length is refused at once,
 * and the stream is cut off while reading, so a chunked or lying request cannot pass it), strictly
 * valid UTF-8 (a malformed or unmappable sequence is refused, never replaced), and for JSON a
 * well-formed document of exactly the expected shape.
 *
 * <p>JSON is read strictly, by a mapper of its own (not the application's, which is lenient for
 * writing responses): a number or boolean where a string belongs is refused, never turned into
 * text; so are an unknown field (a misspelt {@code "txt"} would otherwise be dropped silently), a
 * field given twice, a single value where an array belongs, and anything after the document.
 * Each answers {@link ProblemType#MALFORMED_JSON} with the place in the document.
 */
@Component
class RequestBodies {

    private final int maxBytes;
    private final ObjectMapper json;

    RequestBodies(WordstatsProperties properties) {
        this.maxBytes = (int) properties.limits().maxBodyBytes().toBytes();
        this.json = strictMapper();
    }

    /** The JSON mapper for request bodies: no coercion between JSON types, nothing unknown or repeated. */
    static ObjectMapper strictMapper() {
        return JsonMapper.builder()
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .withCoercionConfig(
                        LogicalType.Textual,
                        text -> text.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
                                .setCoercion(CoercionInputShape.Object, CoercionAction.Fail)
                                .setCoercion(CoercionInputShape.Array, CoercionAction.Fail))
                .withCoercionConfig(
                        LogicalType.Collection,
                        list -> list.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                                .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail))
                .withCoercionConfig(
                        LogicalType.POJO,
                        object -> object.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                                .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail)
                                .setCoercion(CoercionInputShape.Array, CoercionAction.Fail))
                .build();
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
                    "the body is not a JSON object of the form " + expectedShape + reasonOf(e) + locationOf(e));
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

    /** What is wrong, in the client's terms (never a Java type name), e.g. ": 'lines[1]' is a number, not a string". */
    private static String reasonOf(JacksonException e) {
        List<JacksonException.Reference> path = e.getPath();
        String message = String.valueOf(e.getOriginalMessage());
        if (e instanceof UnrecognizedPropertyException unknown) {
            String parent = pathOf(path.subList(0, Math.max(0, path.size() - 1)));
            return ": '" + unknown.getPropertyName() + "' is not a field of "
                    + (parent.isEmpty() ? "the document" : "'" + parent + "'");
        }
        if (message.startsWith("Duplicate Object property")) {
            return ": a field is given twice";
        }
        if (e instanceof MismatchedInputException mismatch
                && mismatch.getCurrentToken() != null
                && !message.startsWith("Trailing token")) {
            String at = pathOf(path);
            return ": " + (at.isEmpty() ? "the document" : "'" + at + "'") + " is "
                    + describe(mismatch.getCurrentToken()) + ", not " + expected(mismatch.getTargetType());
        }
        return ": unexpected content";
    }

    /** A JSON path such as {@code lines[1]}. */
    private static String pathOf(List<JacksonException.Reference> path) {
        return path.stream()
                .map(ref -> ref.getPropertyName() != null
                        ? "." + ref.getPropertyName()
                        : ref.getIndex() >= 0 ? "[" + ref.getIndex() + "]" : "")
                .collect(Collectors.joining())
                .replaceFirst("^\\.", "");
    }

    private static String describe(JsonToken token) {
        return switch (token) {
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_STRING -> "a string";
            case VALUE_NULL -> "null";
            case START_ARRAY, END_ARRAY -> "an array";
            case START_OBJECT, END_OBJECT, PROPERTY_NAME -> "an object";
            default -> "a " + token.name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    private static String expected(@Nullable Class<?> target) {
        if (target == null) {
            return "of the expected type";
        }
        if (CharSequence.class.isAssignableFrom(target)) {
            return "a string";
        }
        if (java.util.Collection.class.isAssignableFrom(target) || target.isArray()) {
            return "an array";
        }
        return "an object";
    }

    private static String locationOf(JacksonException e) {
        var location = e.getLocation();
        return location == null || location.getLineNr() < 1
                ? ""
                : " (problem at line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }
}
