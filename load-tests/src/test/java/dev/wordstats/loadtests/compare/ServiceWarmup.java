package dev.wordstats.loadtests.compare;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Warms a freshly started service up (JIT, connection handling, every stripe lock) with a few
 * virtual threads posting short texts for a bounded time. The simulation resets the counts before
 * its own load, so the warm-up does not disturb the nothing-lost check.
 */
final class ServiceWarmup {

    private static final int THREADS = 8;

    private ServiceWarmup() {}

    static void run(URI baseUrl, Duration duration) throws InterruptedException {
        long deadline = System.nanoTime() + duration.toNanos();
        try (HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int id = t;
                threads.add(Thread.ofVirtual().start(() -> {
                    int n = 0;
                    while (System.nanoTime() < deadline) {
                        String text = "warm up " + id + " round " + (n++ % 97)
                                + " the quick brown fox jumps over the lazy dog";
                        HttpRequest post = HttpRequest.newBuilder(baseUrl.resolve("/api/texts"))
                                .header("Content-Type", "text/plain; charset=UTF-8")
                                .timeout(Duration.ofSeconds(10))
                                .POST(HttpRequest.BodyPublishers.ofString(text))
                                .build();
                        try {
                            client.send(post, HttpResponse.BodyHandlers.discarding());
                        } catch (Exception e) {
                            return; // the simulation will report a service that does not answer
                        }
                    }
                }));
            }
            for (Thread thread : threads) {
                thread.join();
            }
        }
    }
}
