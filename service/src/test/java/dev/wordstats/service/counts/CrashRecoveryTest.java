package dev.wordstats.service.counts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.service.WordstatsApplication;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} during load, then a restart: the service runs as a child JVM on 127.0.0.1 and is
 * killed with {@link Process#destroyForcibly()} (SIGKILL: no shutdown hook, no last snapshot) while
 * virtual and platform client threads are posting. After the restart every word counted before a
 * snapshot that had landed is there exactly, and no word counts more than was sent: what is lost is
 * at most what came after the last snapshot. Bounded: two start-ups (each within 120 s, which only
 * a heavily loaded machine needs), a second of load, 300 s in all.
 */
@Timeout(300)
class CrashRecoveryTest {

    private static final Pattern STARTED = Pattern.compile("started on port (\\d+)");
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final int KEPT_WORDS = 10;
    private static final int KEPT_REQUESTS = 30;
    private static final int LOAD_WORDS = 16;

    @TempDir
    Path dir;

    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killLeftovers() throws InterruptedException {
        for (Process p : children) {
            p.destroyForcibly();
            p.waitFor(20, TimeUnit.SECONDS);
        }
    }

    /** A service JVM on a free loopback port, with this JVM's java and class path; returns its port. */
    private Child startChild(String lockType) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-") || arg.startsWith("--enable-native-access")) {
                command.add(arg);
            }
        }
        command.addAll(List.of(
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                WordstatsApplication.class.getName(),
                "--server.address=127.0.0.1",
                "--server.port=0",
                "--spring.main.banner-mode=off",
                "--wordstats.lock.type=" + lockType,
                "--wordstats.lock.stripes=8",
                "--wordstats.store.data-dir=" + dir,
                "--wordstats.store.snapshot-every=200ms"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        children.add(process);
        process.getOutputStream().close();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        StringBuffer log = new StringBuffer();
        Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader lines =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    log.append(line).append('\n');
                    Matcher m = STARTED.matcher(line);
                    if (m.find()) {
                        port.complete(Integer.parseInt(m.group(1)));
                    }
                }
            } catch (IOException e) {
                // the process is gone
            }
            port.completeExceptionally(new IllegalStateException("the service exited before it started:\n" + log));
        });
        return new Child(process, port.get(120, TimeUnit.SECONDS), log);
    }

    record Child(Process process, int port, StringBuffer log) {}

    private static HttpResponse<String> post(int port, String text) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/texts"))
                        .timeout(Duration.ofSeconds(10))
                        .header("Content-Type", "text/plain")
                        .POST(HttpRequest.BodyPublishers.ofString(text))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static long count(int port, String word) throws IOException, InterruptedException {
        String body = HTTP.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/words/" + word))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        Matcher m = Pattern.compile("\"count\":(\\d+)").matcher(body);
        assertThat(m.find()).as(body).isTrue();
        return Long.parseLong(m.group(1));
    }

    private Map<String, Long> snapshotOnDisk() throws IOException {
        Path file = dir.resolve(StoreSnapshots.FILE_NAME);
        return Files.exists(file) ? SnapshotFile.read(file) : Map.of();
    }

    @Test
    void killDashNineDuringLoadLosesAtMostWhatCameAfterTheLastSnapshot() throws Exception {
        Child first = startChild("NUMA_MCS");

        // Phase 1: words that a snapshot will hold before the crash.
        StringBuilder kept = new StringBuilder();
        for (int w = 0; w < KEPT_WORDS; w++) {
            kept.append("kept").append(w).append(' ');
        }
        for (int i = 0; i < KEPT_REQUESTS; i++) {
            assertThat(post(first.port(), kept.toString()).statusCode()).isEqualTo(200);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Long.valueOf(KEPT_REQUESTS).equals(snapshotOnDisk().get("kept" + (KEPT_WORDS - 1)))) {
            assertThat(System.nanoTime())
                    .as("a snapshot within 30 s:\n%s", first.log())
                    .isLessThan(deadline);
            Thread.sleep(50);
        }

        // Phase 2: load from virtual and platform threads, then SIGKILL in the middle of it.
        Map<String, AtomicLong> sent = new ConcurrentHashMap<>(); // counted before each request is sent
        for (int w = 0; w < LOAD_WORDS; w++) {
            sent.put("load" + w, new AtomicLong());
        }
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong acknowledged = new AtomicLong();
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            int seed = c;
            Runnable client = () -> {
                java.util.Random random = new java.util.Random(seed);
                while (!stop.get()) {
                    String a = "load" + random.nextInt(LOAD_WORDS);
                    String b = "load" + random.nextInt(LOAD_WORDS);
                    sent.get(a).incrementAndGet();
                    sent.get(b).incrementAndGet();
                    try {
                        if (post(first.port(), a + " " + b).statusCode() == 200) {
                            acknowledged.incrementAndGet();
                        }
                    } catch (IOException e) {
                        return; // the service is gone
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            };
            clients.add(
                    c % 2 == 0
                            ? Thread.ofVirtual().start(client)
                            : Thread.ofPlatform().start(client));
        }
        Thread.sleep(1000); // several 200 ms snapshots under load
        Map<String, Long> beforeKill = snapshotOnDisk();
        first.process().destroyForcibly();
        assertThat(first.process().waitFor(20, TimeUnit.SECONDS)).isTrue();
        stop.set(true);
        for (Thread t : clients) {
            t.join(TimeUnit.SECONDS.toMillis(20));
        }
        assertThat(acknowledged.get()).as("load reached the service").isPositive();
        Map<String, Long> lastSnapshot = snapshotOnDisk();

        // Restart (with another lock type): exactly the last snapshot that landed.
        Child second = startChild("FAIR_REENTRANT");
        for (int w = 0; w < KEPT_WORDS; w++) {
            assertThat(count(second.port(), "kept" + w)).as("kept%d", w).isEqualTo(KEPT_REQUESTS);
        }
        for (int w = 0; w < LOAD_WORDS; w++) {
            String word = "load" + w;
            long restored = count(second.port(), word);
            assertThat(restored).as(word).isLessThanOrEqualTo(sent.get(word).get());
            assertThat(restored).as(word).isEqualTo(lastSnapshot.getOrDefault(word, 0L));
            assertThat(restored).as(word).isGreaterThanOrEqualTo(beforeKill.getOrDefault(word, 0L));
        }

        second.process().destroy(); // SIGTERM: a graceful stop
        assertThat(second.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
    }
}
