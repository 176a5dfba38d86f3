package dev.wordstats.service.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.service.TestCredential;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.info.BuildProperties;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What only the real container shows: requests that Tomcat parses before Spring MVC sees them
 * (a multipart Content-Type on a GET, a query string with an empty parameter name or a bad
 * %-escape) were answered 500 while MockMvc answered them fine. Here each gets a normal answer
 * or a 4xx problem+json, over real HTTP, and none changes a count. Also over the real server:
 * the OpenAPI document (every response of every operation, bounds, the build's version) and
 * {@code /actuator/info} (build, lock, scheduler, topology).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Timeout(60)
class RealContainerTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Autowired
    BuildProperties build;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void getWithAMultipartContentTypeAndNoBoundaryIsNotAServerError() throws Exception {
        for (String path : List.of("/api/stats", "/api/topology", "/api/words/alpha", "/api/words/top")) {
            HttpResponse<String> response =
                    send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "multipart/form-data"));
            assertThat(response.statusCode())
                    .as("GET %s: %s", path, response.body())
                    .isEqualTo(200);
        }
    }

    @Test
    void postWithAMultipartContentTypeAndNoBoundaryIs415() throws Exception {
        long before = totalWords();
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/api/texts"))
                .header("Content-Type", "multipart/form-data")
                .POST(HttpRequest.BodyPublishers.ofString("gamma delta")));
        assertProblem(response, 415, "unsupported-media-type");
        assertThat(totalWords()).isEqualTo(before);
    }

    @Test
    void queryWithAnEmptyParameterNameIs400() throws Exception {
        assertProblem(send(HttpRequest.newBuilder(uri("/api/words/top?=x"))), 400, "invalid-parameter");
    }

    @Test
    void queryWithABadPercentEscapeIs400() throws Exception {
        // java.net.URI refuses to build this URL, so it goes over a socket as is.
        String answer = raw("GET /api/words/top?limit=%zz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        assertThat(answer).startsWith("HTTP/1.1 400").contains("application/problem+json");
        assertThat(answer).contains("\"type\":\"urn:wordstats:problem:invalid-parameter\"");
    }

    @Test
    void requestsTomcatRefusesItselfAreProblemsNotHtml() throws Exception {
        // Tomcat refuses these before any servlet runs (over 8 KiB of request line or headers, an encoded
        // slash, no Host): its own valve wrote HTML.
        String longQuery = "limit=%7B%27a%27%3A+1%7D&".repeat(1_000);
        long before = totalWords();
        List<String> requests = List.of(
                "GET /api/words/top?" + longQuery + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                "POST /api/texts?" + longQuery + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 17\r\nConnection: close\r\n\r\n{\"text\": \"a b\"}",
                "GET /api/stats HTTP/1.1\r\nHost: localhost\r\nX-Padding: " + "x".repeat(20_000)
                        + "\r\nConnection: close\r\n\r\n",
                "GET /api/words/a%2Fb HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                "GET /api/stats HTTP/1.1\r\nConnection: close\r\n\r\n");
        for (String request : requests) {
            String answer = raw(request);
            assertThat(answer).as(answer).startsWith("HTTP/1.1 400").contains("Content-Type: application/problem+json");
            assertThat(answer)
                    .contains("\"type\":\"urn:wordstats:problem:invalid-request\"")
                    .contains("\"status\":400")
                    .doesNotContain("<html");
        }
        assertThat(totalWords()).isEqualTo(before);
    }

    @Test
    void unsupportedHttpVersionIsA400ProblemNotA505() throws Exception {
        // Tomcat answers a request line with a version it does not speak 505 before any servlet runs.
        long before = totalWords();
        List<String> requests = List.of(
                "GET /actuator/health HTTP/9.9\r\nHost: localhost\r\n\r\n",
                "POST /api/texts HTTP/1.2\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 15\r\nConnection: close\r\n\r\n{\"text\": \"a b\"}");
        for (String request : requests) {
            String answer = raw(request);
            assertThat(answer).as(answer).startsWith("HTTP/1.1 400").contains("Content-Type: application/problem+json");
            JsonNode problem = JSON.readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
            assertThat(problem.path("type").asString()).isEqualTo("urn:wordstats:problem:invalid-request");
            assertThat(problem.path("status").asInt()).isEqualTo(400);
            assertThat(problem.path("detail").asString())
                    .contains("HTTP version not supported")
                    .contains("HTTP/1.1", "HTTP/1.0");
        }
        assertThat(totalWords()).isEqualTo(before);
        // The versions it does speak are answered as before.
        assertThat(raw("GET /actuator/health HTTP/1.0\r\nHost: localhost\r\n\r\n"))
                .startsWith("HTTP/1.1 200");
        assertThat(raw("GET /actuator/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"))
                .startsWith("HTTP/1.1 200");
    }

    @Test
    void queryStringOnEndpointsWithoutParametersIsIgnored() throws Exception {
        assertThat(send(HttpRequest.newBuilder(uri("/api/stats?=x"))).statusCode())
                .isEqualTo(200);
    }

    @Test
    void deleteWithAMalformedFormBodyStillClears() throws Exception {
        // No form filter parses bodies (spring.mvc.formcontent.filter.enabled: false).
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/api/words"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Authorization", TestCredential.basic())
                .method("DELETE", HttpRequest.BodyPublishers.ofString("a=%zz")));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(204);
    }

    @Test
    void scalarsWhereStringsBelongAreRefusedAndCountNothing() throws Exception {
        long before = totalWords();
        for (Map.Entry<String, String> bad : Map.of(
                        "{\"text\": 5}", "/api/texts",
                        "{\"text\": true}", "/api/texts",
                        "{\"lines\": [\"ok line\", 5]}", "/api/texts/batch")
                .entrySet()) {
            HttpResponse<String> response = send(HttpRequest.newBuilder(uri(bad.getValue()))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(bad.getKey())));
            assertProblem(response, 400, "malformed-json");
        }
        assertThat(totalWords()).isEqualTo(before);
    }

    @Test
    void rawRequestsTomcatParsesFirstNeverGetA5xx() throws Exception {
        // Sent byte for byte, so no client library can tidy them up.
        List<String> requests = List.of(
                "GET /api/words/top?=x HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                "GET /api/words/top?&&=&limit=5 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                "GET /api/stats HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data\r\n"
                        + "Content-Length: 5\r\nConnection: close\r\n\r\nhello",
                "GET /api/words/abc HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=\r\n"
                        + "Connection: close\r\n\r\n");
        List<String> statusLines = new ArrayList<>();
        for (String request : requests) {
            String statusLine = raw(request).lines().findFirst().orElse("");
            statusLines.add(statusLine);
            assertThat(statusLine).as(request).matches("HTTP/1\\.1 [24]\\d\\d.*");
        }
        assertThat(statusLines).hasSize(requests.size());
    }

    @Test
    void openApiDocumentListsEveryResponseWithItsProblemSchemaAndTheBounds() throws Exception {
        JsonNode doc = JSON.readTree(get("/v3/api-docs"));
        assertThat(doc.path("info").path("version").asString()).isEqualTo(build.getVersion());

        JsonNode paths = doc.path("paths");
        assertResponses(paths.path("/api/texts").path("post"), "200", "400", "406", "408", "409", "413", "415");
        assertResponses(paths.path("/api/texts/batch").path("post"), "200", "400", "406", "408", "409", "413", "415");
        assertResponses(paths.path("/api/words/{word}").path("get"), "200", "400", "406");
        assertResponses(paths.path("/api/words/top").path("get"), "200", "400", "406");
        assertResponses(paths.path("/api/stats").path("get"), "200", "406");
        assertResponses(paths.path("/api/topology").path("get"), "200", "406");
        assertResponses(paths.path("/api/words").path("delete"), "204", "401", "409");

        JsonNode limit =
                paths.path("/api/words/top").path("get").path("parameters").get(0);
        assertThat(limit.path("name").asString()).isEqualTo("limit");
        assertThat(limit.path("schema").path("minimum").asInt()).isEqualTo(1);
        assertThat(limit.path("schema").path("maximum").asInt()).isEqualTo(WordController.MAX_LIMIT);
        JsonNode word =
                paths.path("/api/words/{word}").path("get").path("parameters").get(0);
        assertThat(word.path("schema").path("maxLength").asInt()).isEqualTo(100);

        JsonNode schemas = doc.path("components").path("schemas");
        assertThat(schemas.path("BatchRequest")
                        .path("properties")
                        .path("lines")
                        .path("maxItems")
                        .asInt())
                .isEqualTo(10_000);
        assertThat(schemas.path("TextRequest").path("additionalProperties").asBoolean(true))
                .isFalse();
        assertThat(schemas.path(OpenApiConfiguration.PROBLEM_SCHEMA)
                        .path("required")
                        .toString())
                .contains("type", "title", "status");
    }

    @Test
    void actuatorInfoShowsTheBuildTheLockTheSchedulerAndTheTopology() throws Exception {
        JsonNode info = JSON.readTree(
                send(HttpRequest.newBuilder(uri("/actuator/info")).header("Authorization", TestCredential.basic()))
                        .body());
        assertThat(info.path("build").path("version").asString()).isEqualTo(build.getVersion());
        JsonNode wordstats = info.path("wordstats");
        assertThat(wordstats.path("lock").path("type").asString()).isEqualTo("NUMA_MONITOR"); // the default
        assertThat(wordstats.path("lock").path("stripes").asInt()).isEqualTo(64);
        assertThat(wordstats.path("scheduler").asString()).isNotBlank();
        assertThat(wordstats.path("requestThreads").asString()).isEqualTo("virtual");
        assertThat(wordstats.path("topology").path("count").asInt()).isPositive();
        assertThat(wordstats.path("topology").path("cpus").asInt()).isPositive();
    }

    private static void assertResponses(JsonNode operation, String... statuses) {
        JsonNode responses = operation.path("responses");
        assertThat(responses.propertyNames()).containsExactlyInAnyOrder(statuses);
        for (String status : statuses) {
            if (status.startsWith("4") || status.startsWith("5")) {
                JsonNode content = responses.path(status).path("content");
                assertThat(content.path("application/problem+json")
                                .path("schema")
                                .path("$ref")
                                .asString())
                        .as("%s of %s", status, operation.path("operationId"))
                        .isEqualTo("#/components/schemas/" + OpenApiConfiguration.PROBLEM_SCHEMA);
            }
        }
    }

    private static void assertProblem(HttpResponse<String> response, int status, String type) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        assertThat(response.body()).contains("\"type\":\"urn:wordstats:problem:" + type + "\"");
    }

    private long totalWords() throws IOException, InterruptedException {
        return JSON.readTree(get("/api/stats")).path("totalWords").asLong();
    }

    private String get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri(path)));
        assertThat(response.statusCode())
                .as("GET %s: %s", path, response.body())
                .isEqualTo(200);
        return response.body();
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(
                request.timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** Sends {@code request} as is over a socket and returns the whole answer. */
    private String raw(String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}
