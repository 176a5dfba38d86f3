package dev.wordstats.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.lock.LockType;
import dev.wordstats.service.counts.StoreSnapshots;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The whole service stopped and started again on one data directory: every count comes back,
 * also with another lock type, and is there for the first request; a bad snapshot or an
 * unwritable data directory stops the start with a message naming it.
 */
@Timeout(120)
class RestartKeepsCountsTest {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    private ConfigurableApplicationContext start(LockType lock, String... more) {
        String[] args = new String[4 + more.length];
        args[0] = "--server.address=127.0.0.1";
        args[1] = "--server.port=0";
        args[2] = "--wordstats.store.data-dir=" + dir;
        args[3] = "--wordstats.lock.type=" + lock.name();
        System.arraycopy(more, 0, args, 4, more.length);
        return new SpringApplicationBuilder(WordstatsApplication.class).run(args);
    }

    private static int port(ConfigurableApplicationContext context) {
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    private static HttpResponse<String> send(int port, String method, String path, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "text/plain")
                .header("Authorization", TestCredential.basic())
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String counts(int port, Map<String, Long> expected) throws Exception {
        StringBuilder seen = new StringBuilder();
        for (String word : expected.keySet()) {
            seen.append(send(port, "GET", "/api/words/" + word, null).body()).append('\n');
        }
        seen.append(send(port, "GET", "/api/words/top?limit=1000", null).body());
        return seen.toString();
    }

    @Test
    void aRestartWithAnotherLockTypeKeepsEveryCountExactly() throws Exception {
        Map<String, Long> expected = new LinkedHashMap<>();
        String before;
        try (ConfigurableApplicationContext first = start(LockType.NUMA_MCS, "--wordstats.store.snapshot-every=1h")) {
            int port = port(first);
            for (int i = 0; i < 40; i++) {
                String text = "alpha w" + (i % 7) + " don't naïve 日本";
                assertThat(send(port, "POST", "/api/texts", text).statusCode()).isEqualTo(200);
            }
            for (String w : new String[] {"alpha", "w0", "w6", "don't", "naïve", "日本"}) {
                expected.put(w, null);
            }
            before = counts(port, expected);
            assertThat(before).contains("{\"word\":\"alpha\",\"count\":40}");
        } // graceful close: the snapshot is written after the requests drained, not by the hourly timer
        assertThat(dir.resolve(StoreSnapshots.FILE_NAME)).exists();

        for (LockType next : new LockType[] {LockType.COMBINING, LockType.UNFAIR_REENTRANT}) {
            try (ConfigurableApplicationContext again = start(next, "--wordstats.lock.stripes=4")) {
                int port = port(again);
                assertThat(counts(port, expected)).as(next.name()).isEqualTo(before);
                assertThat(send(port, "GET", "/api/stats", null).body()).contains("\"" + next.name() + "\"");
            }
        }
    }

    @Test
    void aSnapshotOverALoweredCapIsLoadedAtTheNextStart() throws Exception {
        try (ConfigurableApplicationContext first = start(LockType.NUMA_MCS, "--wordstats.store.snapshot-every=1h")) {
            int port = port(first);
            for (int i = 0; i < 5; i++) {
                assertThat(send(port, "POST", "/api/texts", "w" + i + " w" + i + " shared")
                                .statusCode())
                        .isEqualTo(200);
            }
        } // 6 distinct words written on the graceful close
        try (ConfigurableApplicationContext again = start(
                LockType.NUMA_MCS,
                "--wordstats.limits.max-distinct-words=3",
                "--wordstats.store.on-bad-snapshot=fail")) {
            int port = port(again);
            assertThat(send(port, "GET", "/api/words/shared", null).body()).contains("\"count\":5");
            assertThat(send(port, "GET", "/api/words/w4", null).body()).contains("\"count\":2");
            assertThat(send(port, "POST", "/api/texts", "brandnew").statusCode())
                    .as("over the cap: no new word")
                    .isEqualTo(409);
            assertThat(send(port, "POST", "/api/texts", "shared w0").statusCode())
                    .isEqualTo(200);
            assertThat(again.getBean(StoreSnapshots.class).restoredOverCap()).isEqualTo(6);
        }
    }

    @Test
    void aDeleteThatCannotRemoveTheSnapshotIsRefusedAndADeleteThatCanStaysDoneAfterARestart() throws Exception {
        Path snapshot = dir.resolve(StoreSnapshots.FILE_NAME);
        try (ConfigurableApplicationContext first = start(LockType.NUMA_MCS, "--wordstats.store.snapshot-every=1h")) {
            int port = port(first);
            assertThat(send(port, "POST", "/api/texts", "kept kept kept").statusCode())
                    .isEqualTo(200);
            first.getBean(StoreSnapshots.class).writeIfChanged();
            // A removal that fails for real, also for root: the snapshot's name is a non-empty directory.
            Files.delete(snapshot);
            Files.writeString(Files.createDirectory(snapshot).resolve("inside"), "x");
            HttpResponse<String> refused = send(port, "DELETE", "/api/words", null);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
            assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(refused.body())
                    .contains("\"type\":\"urn:wordstats:problem:clear-refused\"", "nothing was cleared")
                    .doesNotContain(dir.toString());
            assertThat(send(port, "GET", "/api/words/kept", null).body()).contains("\"count\":3");

            Files.delete(snapshot.resolve("inside"));
            Files.delete(snapshot);
            assertThat(send(port, "DELETE", "/api/words", null).statusCode()).isEqualTo(204);
            assertThat(send(port, "GET", "/api/words/kept", null).body()).contains("\"count\":0");
        } // graceful close after the clear: nothing to write
        try (ConfigurableApplicationContext again = start(LockType.NUMA_MCS)) {
            assertThat(send(port(again), "GET", "/api/words/kept", null).body()).contains("\"count\":0");
        }
    }

    @Test
    void aRefusedDeleteKeepsTheCountsAcrossARestart() throws Exception {
        Path snapshot = dir.resolve(StoreSnapshots.FILE_NAME);
        try (ConfigurableApplicationContext first = start(LockType.NUMA_MCS, "--wordstats.store.snapshot-every=1h")) {
            int port = port(first);
            assertThat(send(port, "POST", "/api/texts", "kept kept").statusCode())
                    .isEqualTo(200);
            Files.writeString(Files.createDirectory(snapshot).resolve("inside"), "x");
            assertThat(send(port, "DELETE", "/api/words", null).statusCode()).isEqualTo(409);
            Files.delete(snapshot.resolve("inside"));
            Files.delete(snapshot);
        } // graceful close: the counts the refused DELETE kept are written
        try (ConfigurableApplicationContext again = start(LockType.NUMA_MCS)) {
            assertThat(send(port(again), "GET", "/api/words/kept", null).body()).contains("\"count\":2");
        }
    }

    @Test
    void aCorruptSnapshotStopsTheStartNamingTheFile() throws IOException {
        java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate(27)
                .put("WORDSTATS SNAPSHOT\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
                .putInt(1) // version 1
                .putInt(-7); // a word of -7 bytes
        Path file = Files.write(dir.resolve(StoreSnapshots.FILE_NAME), bytes.array());
        assertThatThrownBy(() -> start(LockType.NUMA_MCS).close())
                .hasRootCauseInstanceOf(dev.wordstats.service.counts.BadSnapshotException.class)
                .rootCause()
                .hasMessageContaining(file.toString())
                .hasMessageContaining("is corrupt");
        assertThat(file).as("left for a person to look at").exists();
    }

    @Test
    void anUnwritableDataDirectoryStopsTheStart() throws IOException {
        Path notADirectory = Files.writeString(dir.resolve("file"), "x");
        assertThatThrownBy(() -> new SpringApplicationBuilder(WordstatsApplication.class)
                        .run("--server.port=0", "--wordstats.store.data-dir=" + notADirectory)
                        .close())
                .satisfies(e -> assertThat(causes(e))
                        .anySatisfy(c -> assertThat(c)
                                .isInstanceOf(StartupCheckException.class)
                                .hasMessageContaining("wordstats.store.data-dir " + notADirectory)));
    }

    static java.util.List<Throwable> causes(Throwable e) {
        java.util.List<Throwable> all = new java.util.ArrayList<>();
        for (Throwable t = e; t != null && !all.contains(t); t = t.getCause()) {
            all.add(t);
        }
        return all;
    }
}
