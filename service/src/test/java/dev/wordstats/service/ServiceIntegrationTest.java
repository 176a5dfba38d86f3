package dev.wordstats.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The whole service over real HTTP, with the default lock type: the request limits, the OpenAPI
 * document and the actuator exposure. The counting flow runs for every lock type in
 * {@link EveryLockTypeServiceIntegrationTest}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "wordstats.lock.stripes=8")
@AutoConfigureMetrics
@Timeout(90)
class ServiceIntegrationTest {

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    @Test
    void chunkedBodyOverTheLimitIsRefusedWhileReading() throws Exception {
        byte[] big = "word ".repeat(300_000).getBytes(StandardCharsets.US_ASCII); // 1.5 MB > 1MB, no Content-Length
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(uri("/api/texts"))
                        .header("Content-Type", "text/plain")
                        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        assertThat(response.body()).contains("urn:wordstats:problem:body-too-large");
    }

    @Test
    void openApiDocumentListsTheApi() throws Exception {
        String doc = get("/v3/api-docs");
        assertThat(doc)
                .contains(
                        "\"/api/texts\"",
                        "\"/api/texts/batch\"",
                        "\"/api/words/{word}\"",
                        "\"/api/words/top\"",
                        "\"/api/stats\"",
                        "\"/api/topology\"",
                        "\"/api/words\"");
    }

    @Test
    void actuatorExposesOnlyHealthInfoPrometheusAndMetrics() throws Exception {
        assertThat(send(HttpRequest.newBuilder(uri("/actuator/health"))).statusCode())
                .isEqualTo(200);
        assertThat(send(HttpRequest.newBuilder(uri("/actuator/metrics/wordstats.lock.acquisitions"))
                                .header("Authorization", TestCredential.basic()))
                        .statusCode())
                .isEqualTo(200);
        assertThat(send(HttpRequest.newBuilder(uri("/actuator/env"))).statusCode())
                .isEqualTo(404);
        assertThat(send(HttpRequest.newBuilder(uri("/actuator/beans"))).statusCode())
                .isEqualTo(404);
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
                request.timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}
