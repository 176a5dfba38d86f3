package dev.wordstats.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.service.counts.StoreSnapshots;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The health component {@code snapshots} over real HTTP: UP while the writes succeed, DOWN (and
 * {@code /actuator/health} 503) after {@code unhealthy-after-failures} failures in a row, with the
 * last error, the count and the last good write in its details (shown with the credential only),
 * the readiness group UP throughout, and UP again after the next good write. The writes fail for
 * real, also for root: the snapshot's name is made a non-empty directory, which the written file
 * cannot be moved over.
 */
@Timeout(120)
class SnapshotsHealthHttpTest {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    private static HttpResponse<String> send(int port, String method, String path, String body, boolean credential)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "text/plain")
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (credential) {
            request.header("Authorization", TestCredential.basic());
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Polls {@code path} (with the credential) until {@code until} holds, within 30 s. */
    private static HttpResponse<String> await(int port, String path, Predicate<HttpResponse<String>> until)
            throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        HttpResponse<String> response = send(port, "GET", path, null, true);
        while (!until.test(response)) {
            assertThat(System.nanoTime())
                    .as("still %s: %s", response.statusCode(), response.body())
                    .isLessThan(deadline);
            Thread.sleep(50);
            response = send(port, "GET", path, null, true);
        }
        return response;
    }

    @Test
    void failedWritesTurnTheSnapshotsComponentDownWithTheReasonAndAGoodWriteTurnsItUp() throws Exception {
        Path snapshot = dir.resolve(StoreSnapshots.FILE_NAME);
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(WordstatsApplication.class)
                .run(
                        "--server.address=127.0.0.1",
                        "--server.port=0",
                        "--wordstats.store.data-dir=" + dir,
                        "--wordstats.store.snapshot-every=100ms",
                        "--wordstats.store.unhealthy-after-failures=2")) {
            int port = ((WebServerApplicationContext) context).getWebServer().getPort();
            StoreSnapshots snapshots = context.getBean(StoreSnapshots.class);
            assertThat(send(port, "GET", "/actuator/health", null, false).statusCode())
                    .isEqualTo(200);
            JsonNode up = JSON.readTree(
                    send(port, "GET", "/actuator/health/snapshots", null, true).body());
            assertThat(up.path("status").asString()).isEqualTo("UP");
            assertThat(up.path("details").path("lastGoodWrite").asString()).isEqualTo("none");

            assertThat(send(port, "POST", "/api/texts", "kept words kept", false)
                            .statusCode())
                    .isEqualTo(200);
            await(
                    port,
                    "/actuator/health/snapshots",
                    r -> r.body().contains("\"failuresInARow\":0") && !r.body().contains("\"lastGoodWrite\":\"none\""));
            assertThat(snapshot).isRegularFile();

            Files.delete(snapshot);
            Files.writeString(Files.createDirectory(snapshot).resolve("inside"), "x");
            assertThat(send(port, "POST", "/api/texts", "lost words", false).statusCode())
                    .isEqualTo(200);
            HttpResponse<String> down = await(port, "/actuator/health/snapshots", r -> r.statusCode() == 503);
            JsonNode details = JSON.readTree(down.body()).path("details");
            assertThat(JSON.readTree(down.body()).path("status").asString()).isEqualTo("DOWN");
            assertThat(details.path("failuresInARow").asInt()).isGreaterThanOrEqualTo(2);
            assertThat(details.path("unhealthyAfterFailures").asInt()).isEqualTo(2);
            assertThat(details.path("lastFailure").asString()).contains(snapshot.toString());
            assertThat(Instant.parse(details.path("lastGoodWrite").asString())).isBefore(Instant.now());
            assertThat(snapshots.failuresInARow()).isGreaterThanOrEqualTo(2);

            HttpResponse<String> overall = send(port, "GET", "/actuator/health", null, false);
            assertThat(overall.statusCode()).isEqualTo(503);
            assertThat(overall.body()).as("no details without the credential").doesNotContain("lastFailure");
            assertThat(send(port, "GET", "/actuator/health/snapshots", null, false)
                            .statusCode())
                    .isEqualTo(401);
            HttpResponse<String> readiness = send(port, "GET", "/actuator/health/readiness", null, false);
            assertThat(readiness.statusCode())
                    .as("snapshots is not in the readiness group: %s", readiness.body())
                    .isEqualTo(200);
            assertThat(send(port, "GET", "/api/words/lost", null, false).body())
                    .as("counting goes on")
                    .contains("\"count\":1");

            Files.delete(snapshot.resolve("inside"));
            Files.delete(snapshot);
            HttpResponse<String> again = await(port, "/actuator/health/snapshots", r -> r.statusCode() == 200);
            assertThat(again.body())
                    .as("UP, the last failure still told")
                    .contains("\"failuresInARow\":0", "lastFailure");
            assertThat(send(port, "GET", "/actuator/health", null, false).statusCode())
                    .isEqualTo(200);
            assertThat(snapshot).isRegularFile();
        }
    }
}
