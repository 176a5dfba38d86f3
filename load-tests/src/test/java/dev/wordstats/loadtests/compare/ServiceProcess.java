package dev.wordstats.loadtests.compare;

import dev.wordstats.loadtests.AdminCredential;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The service jar run as a child process on a free loopback port, with its output in a log file.
 * {@link #close()} stops it (SIGTERM, then SIGKILL after a grace period); a JVM shutdown hook does
 * the same if the runner is interrupted, so no service outlives its run.
 */
final class ServiceProcess implements AutoCloseable {

    private final Process process;
    private final URI baseUrl;
    private final Path log;
    private final Thread shutdownHook;

    private ServiceProcess(Process process, URI baseUrl, Path log) {
        this.process = process;
        this.baseUrl = baseUrl;
        this.log = log;
        this.shutdownHook = new Thread(this::stop, "stop-service-" + process.pid());
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts {@code [placement] java [jvmArgs] -jar jar --server.port=P --server.address=127.0.0.1
     * [appArgs]} with the JDK this JVM runs on; {@code placement} is a {@link Placement#prefix()}
     * (numactl or taskset) or empty.
     */
    static ServiceProcess start(
            List<String> placement,
            Path jar,
            List<String> jvmArgs,
            List<String> appArgs,
            Path log,
            AdminCredential credential)
            throws IOException {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no service jar at " + jar
                    + ": build it first (./mvnw -pl service -am package -DskipTests), or point -DserviceJar at it");
        }
        int port = freeLoopbackPort();
        List<String> command = new ArrayList<>(placement);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        command.add("-jar");
        command.add(jar.toString());
        command.add("--server.port=" + port);
        command.add("--server.address=127.0.0.1");
        command.addAll(appArgs);
        Files.createDirectories(log.getParent());
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        credential.toServiceEnvironment(builder.environment());
        Process process = builder.start();
        return new ServiceProcess(process, URI.create("http://127.0.0.1:" + port), log);
    }

    static int freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }

    URI baseUrl() {
        return baseUrl;
    }

    long pid() {
        return process.pid();
    }

    Path log() {
        return log;
    }

    /** Polls {@code /actuator/health} until it answers UP, the process dies, or the timeout passes. */
    void awaitHealthy(Duration timeout) {
        try (HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()) {
            HttpRequest health = HttpRequest.newBuilder(baseUrl.resolve("/actuator/health"))
                    .timeout(Duration.ofSeconds(5))
                    .build();
            AtomicReference<String> last = new AtomicReference<>("no answer");
            try {
                Awaitility.await("the service's health")
                        .atMost(timeout)
                        .pollDelay(Duration.ZERO)
                        .pollInterval(Duration.ofMillis(250))
                        .until(() -> {
                            if (!process.isAlive()) {
                                throw new IllegalStateException("the service exited with code " + process.exitValue()
                                        + " before it was healthy; last lines of " + log + ":\n" + tail(40));
                            }
                            try {
                                HttpResponse<String> response =
                                        client.send(health, HttpResponse.BodyHandlers.ofString());
                                last.set(response.statusCode() + " " + response.body());
                                return response.statusCode() == 200
                                        && response.body().contains("\"UP\"");
                            } catch (IOException e) {
                                last.set(e.toString());
                                return false;
                            }
                        });
            } catch (ConditionTimeoutException e) {
                throw new IllegalStateException("the service was not healthy after " + timeout.toSeconds()
                        + " s (last: " + last.get() + "); last lines of " + log + ":\n" + tail(40));
            }
        }
    }

    /**
     * The number of file descriptors the service holds open now (sockets included), from
     * {@code /proc/<pid>/fd}; -1 where there is no /proc.
     */
    long openFileDescriptors() {
        Path fds = Path.of("/proc", Long.toString(process.pid()), "fd");
        try (Stream<Path> list = Files.list(fds)) {
            return list.count();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    private void stop() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running or has run: nothing left to do
        }
    }
}
