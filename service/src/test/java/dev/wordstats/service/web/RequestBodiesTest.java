package dev.wordstats.service.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.service.WordstatsProperties;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.mock.web.MockHttpServletRequest;

/** The body limit holds while reading, whatever the request declares. */
class RequestBodiesTest {

    private final RequestBodies bodies = new RequestBodies(properties(16));

    @Test
    void bodyWithoutContentLengthIsCutOffPastTheLimit() {
        MockHttpServletRequest request = requestDeclaring(-1, "seventeen bytes!!");
        assertThatThrownBy(() -> bodies.text(request))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.type()).isEqualTo(ProblemType.BODY_TOO_LARGE));
    }

    @Test
    void bodyLongerThanItsDeclaredLengthIsCutOffPastTheLimit() {
        MockHttpServletRequest request = requestDeclaring(4, "seventeen bytes!!");
        assertThatThrownBy(() -> bodies.text(request))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.type()).isEqualTo(ProblemType.BODY_TOO_LARGE));
    }

    @Test
    void declaredLengthOverTheLimitIsRefusedBeforeReading() {
        MockHttpServletRequest request = requestDeclaring(1 << 20, "short");
        assertThatThrownBy(() -> bodies.text(request))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.type()).isEqualTo(ProblemType.BODY_TOO_LARGE));
    }

    @Test
    void bodyOfExactlyTheLimitIsRead() {
        assertThat(bodies.text(requestDeclaring(-1, "sixteen bytes!!!"))).isEqualTo("sixteen bytes!!!");
    }

    private static MockHttpServletRequest requestDeclaring(long contentLength, String body) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/texts") {
            @Override
            public long getContentLengthLong() {
                return contentLength;
            }

            @Override
            public int getContentLength() {
                return (int) contentLength;
            }
        };
        request.setContentType("text/plain");
        request.setContent(body.getBytes(StandardCharsets.UTF_8));
        return request;
    }

    private static WordstatsProperties properties(int maxBodyBytes) {
        return new Binder(new MapConfigurationPropertySource(
                        Map.of("wordstats.limits.max-body-bytes", maxBodyBytes + "B")))
                .bindOrCreate("wordstats", WordstatsProperties.class);
    }
}
