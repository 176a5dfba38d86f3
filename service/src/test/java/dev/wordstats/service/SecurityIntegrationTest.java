package dev.wordstats.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.service.counts.WordStore;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The credential: each protected endpoint without, with a wrong and with the right credential (a
 * 401 is problem+json with a Basic challenge and clears nothing), and the open paths open to all,
 * whatever Authorization header they carry.
 */
@AutoConfigureMetrics
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "wordstats.lock.stripes=4")
class SecurityIntegrationTest {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @LocalServerPort
    int port;

    @Autowired
    WordStore store;

    /** Protected: method, path, status with the right credential. */
    static List<Object[]> protectedEndpoints() {
        return List.of(
                new Object[] {"DELETE", "/api/words", 204},
                new Object[] {"GET", "/actuator", 200},
                new Object[] {"GET", "/actuator/info", 200},
                new Object[] {"GET", "/actuator/metrics", 200},
                new Object[] {"GET", "/actuator/metrics/wordstats.words.distinct", 200});
    }

    /** Open: method, path. */
    static List<Object[]> openEndpoints() {
        return List.of(
                new Object[] {"POST", "/api/texts"},
                new Object[] {"GET", "/api/words/open"},
                new Object[] {"GET", "/api/words/top"},
                new Object[] {"GET", "/api/stats"},
                new Object[] {"GET", "/api/topology"},
                new Object[] {"GET", "/v3/api-docs"},
                new Object[] {"GET", "/actuator/health"},
                new Object[] {"GET", "/actuator/health/liveness"},
                new Object[] {"GET", "/actuator/prometheus"});
    }

    @BeforeEach
    void someCounts() throws Exception {
        assertThat(send("POST", "/api/texts", null).statusCode()).isEqualTo(200);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("protectedEndpoints")
    void protectedEndpointsNeedTheCredentialAndA401ChangesNothing(String method, String path, int allowed)
            throws Exception {
        Map<String, String> refused = new java.util.LinkedHashMap<>();
        refused.put("none", null);
        refused.put("wrong password", TestCredential.basic(TestCredential.USER, "guess"));
        refused.put("wrong user", TestCredential.basic("root", TestCredential.PASSWORD));
        refused.put("not basic", "Bearer " + TestCredential.PASSWORD);
        for (Map.Entry<String, String> credential : refused.entrySet()) {
            long total = store.total();
            HttpResponse<String> response = send(method, path, credential.getValue());
            assertThat(response.statusCode()).as(credential.getKey()).isEqualTo(401);
            assertThat(response.headers().firstValue("WWW-Authenticate"))
                    .as(credential.getKey())
                    .hasValueSatisfying(v -> assertThat(v).startsWith("Basic realm=\"wordstats\""));
            assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(response.body())
                    .contains(
                            "\"type\":\"urn:wordstats:problem:unauthorized\"",
                            "\"status\":401",
                            "\"instance\":\"" + path);
            assertThat(store.total())
                    .as("nothing cleared on a 401")
                    .isEqualTo(total)
                    .isPositive();
        }
        HttpResponse<String> allowedResponse = send(method, path, TestCredential.basic());
        assertThat(allowedResponse.statusCode()).as(allowedResponse.body()).isEqualTo(allowed);
        if (method.equals("DELETE")) {
            assertThat(store.total()).isZero();
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("openEndpoints")
    void openPathsAnswerWithoutACredentialAndIgnoreAWrongOne(String method, String path) throws Exception {
        for (String credential : new String[] {null, TestCredential.basic(TestCredential.USER, "guess")}) {
            HttpResponse<String> response = send(method, path, credential);
            assertThat(response.statusCode()).as("%s %s", path, response.body()).isEqualTo(200);
            assertThat(response.headers().firstValue("WWW-Authenticate")).isEmpty();
        }
    }

    @org.junit.jupiter.api.Test
    void theFirewallLetsAnyMethodThroughToA405AndRejectsWithAProblem() throws Exception {
        HttpResponse<String> query = send("QUERY", "/api/stats", null);
        assertThat(query.statusCode()).as(query.body()).isEqualTo(405);
        assertThat(query.headers().firstValue("Content-Type"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
        HttpResponse<String> semicolon = send("GET", "/api/stats;x=1", null);
        assertThat(semicolon.statusCode()).as(semicolon.body()).isEqualTo(400);
        assertThat(semicolon.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(semicolon.body()).contains("\"type\":\"urn:wordstats:problem:invalid-request\"");
    }

    private HttpResponse<String> send(String method, String path, String authorization)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30));
        if (method.equals("POST")) {
            request.header("Content-Type", "text/plain")
                    .POST(HttpRequest.BodyPublishers.ofString("guarded words guarded"));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
