package dev.wordstats.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.LockType;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The counting flow against a running service: many virtual threads post known texts concurrently
 * (plain, JSON and batch); afterwards every count and the total are exact, and
 * {@code /actuator/prometheus} shows the lock metrics of the service's lock type, non-zero.
 *
 * <p>Bounded: {@code wordstats.test.clients} threads (default 32) x {@code wordstats.test.requests}
 * requests each (default 15).
 */
final class CountingFlow {

    private static final int CLIENTS = Integer.getInteger("wordstats.test.clients", 32);
    private static final int REQUESTS = Integer.getInteger("wordstats.test.requests", 15);
    private static final List<String> VOCABULARY = List.of(
            "alpha", "beta", "gamma", "delta", "don't", "caf\u00E9", "\u4E16\u754C", "i\u0307stanbul", "x2", "omega");

    private final int port;
    private final LockType lockType;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    CountingFlow(int port, LockType lockType) {
        this.port = port;
        this.lockType = lockType;
    }

    /** Runs the flow and checks the counts and metrics. */
    void postConcurrentlyAndCheck() throws Exception {
        assertThat(send(HttpRequest.newBuilder(uri("/api/words"))
                                .header("Authorization", TestCredential.basic())
                                .DELETE())
                        .statusCode())
                .isEqualTo(204);

        Map<String, LongAdder> expected = new ConcurrentHashMap<>();
        LongAdder expectedTotal = new LongAdder();
        List<Future<?>> clients = new ArrayList<>();
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                clients.add(executor.submit(() -> {
                    for (int r = 0; r < REQUESTS; r++) {
                        postOne(client, r, expected, expectedTotal);
                    }
                    return null;
                }));
            }
        }
        for (Future<?> client : clients) {
            client.get();
        }

        for (Map.Entry<String, LongAdder> e : expected.entrySet()) {
            String body = get("/api/words/"
                    + java.net.URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)
                            .replace("+", "%20"));
            assertThat(body)
                    .as("count of %s", e.getKey())
                    .contains("\"count\":" + e.getValue().sum() + "}");
        }
        String stats = get("/api/stats");
        assertThat(stats)
                .contains("\"totalWords\":" + expectedTotal.sum() + ",")
                .contains("\"distinctWords\":" + expected.size() + ",")
                .contains("\"lockType\":\"" + lockType.name() + "\"");

        String prometheus = get("/actuator/prometheus");
        assertThat(value(prometheus, "wordstats_lock_acquisitions_total", "path=\"fast\"")
                        + value(prometheus, "wordstats_lock_acquisitions_total", "path=\"slow\""))
                .isPositive();
        assertThat(value(prometheus, "wordstats_lock_handoffs_total", "locality=\"same_node\"")
                        + value(prometheus, "wordstats_lock_handoffs_total", "locality=\"cross_node\""))
                .isPositive();
        assertThat(value(prometheus, "wordstats_lock_wait_seconds_count", "path=\"fast\"")
                        + value(prometheus, "wordstats_lock_wait_seconds_count", "path=\"slow\""))
                .isPositive();
        assertThat(value(prometheus, "wordstats_lock_held_seconds_count", "")).isPositive();
        String lock = "lock=\"" + lockType.name() + "\"";
        if (lockType.hasModes()) {
            assertThat(value(prometheus, "wordstats_lock_mode_switches_total", lock))
                    .as("mode switches")
                    .isGreaterThanOrEqualTo(0.0);
        } else {
            assertThat(prometheus)
                    .as("no mode switch series for a type without modes (it would be 0 by construction)")
                    .doesNotContain("wordstats_lock_mode_switches_total");
        }
        assertThat(prometheus)
                .as("no series of a path no caller reports (every stripe probe says fast or slow)")
                .doesNotContain("path=\"unknown\"");
        assertThat(prometheus)
                .contains("wordstats_lock_wait_seconds_bucket{access=\"write\",application=\"wordstats\"," + lock
                        + ",path=\"slow\",le=");
        // the lock type is a common tag: the store, HTTP and JVM meters carry it too
        assertThat(prometheus)
                .containsPattern("wordstats_words_counted_total\\{application=\"wordstats\"," + lock + "} [1-9]");
        assertThat(prometheus)
                .contains("wordstats_words_distinct{application=\"wordstats\"," + lock + "} " + expected.size() + ".0");
        assertThat(prometheus)
                .containsPattern("http_server_requests_seconds_count\\{application=\"wordstats\",[^}]*" + lock);
        assertThat(prometheus).containsPattern("jvm_threads_virtual_[a-z_]+\\{[^}]*" + lock);
        assertThat(prometheus)
                .containsPattern("wordstats_info\\{application=\"wordstats\"," + lock
                        + ",nodes=\"[1-9][0-9]*\",reserve_after=\"PT[^\"]+\",scheduler=\"(default|per-node)\","
                        + "simulated=\"(true|false)\",stripes=\"[1-9][0-9]*\"} 1(\\.0)?\n");
    }

    /** One client request: cycles through plain text, JSON and batch bodies built from the vocabulary. */
    private void postOne(int client, int r, Map<String, LongAdder> expected, LongAdder expectedTotal) throws Exception {
        List<String> words = new ArrayList<>();
        for (int i = 0; i <= (client + r) % 7; i++) {
            words.add(VOCABULARY.get((client * 3 + r + i) % VOCABULARY.size()));
        }
        words.add("c" + client); // a word per client
        String text = String.join(" ", words);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(r % 3 == 2 ? "/api/texts/batch" : "/api/texts"));
        switch (r % 3) {
            case 0 ->
                request.header("Content-Type", "text/plain; charset=UTF-8")
                        .POST(HttpRequest.BodyPublishers.ofString(text));
            case 1 ->
                request.header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"text\":\"" + text + "\"}"));
            default ->
                request.header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"lines\":[\"" + text.replace(" ", "\",\"") + "\"]}"));
        }
        HttpResponse<String> response = send(request);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        for (String word : words) {
            expected.computeIfAbsent(word, w -> new LongAdder()).increment();
        }
        expectedTotal.add(words.size());
    }

    /** The value of the series {@code name} with lock="<type>" and {@code matcher} among its tags. */
    private double value(String prometheus, String name, String matcher) {
        Pattern line = Pattern.compile("^" + name + "\\{([^}]*)} (\\S+)$", Pattern.MULTILINE);
        Matcher m = line.matcher(prometheus);
        while (m.find()) {
            String tags = m.group(1);
            if (tags.contains("lock=\"" + lockType.name() + "\"") && tags.contains(matcher)) {
                return Double.parseDouble(m.group(2));
            }
        }
        throw new AssertionError("no series " + name + "{lock=\"" + lockType + "\"," + matcher + "} in\n" + prometheus);
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
