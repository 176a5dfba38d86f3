package dev.wordstats.service.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.FileSystemResource;

/**
 * A client that sends half a request and then nothing (slowloris) is cut off by Tomcat's connection
 * timeout, and application.yml sets that timeout and the keep-alive one (Tomcat's own default
 * would keep such a connection a minute). Here the timeout is shortened to keep the test short.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"server.tomcat.connection-timeout=1s", "server.tomcat.keep-alive-timeout=1s"})
@Timeout(60)
class SlowClientTest {

    private static final Duration CUT_OFF_WITHIN = Duration.ofSeconds(15);

    @LocalServerPort
    int port;

    @Test
    void applicationYmlSetsTheConnectionAndKeepAliveTimeouts() throws Exception {
        PropertySource<?> yml = new YamlPropertySourceLoader()
                .load("application.yml", new FileSystemResource(Path.of("src/main/resources/application.yml")))
                .getFirst();
        for (String name : new String[] {"server.tomcat.connection-timeout", "server.tomcat.keep-alive-timeout"}) {
            Object value = yml.getProperty(name);
            assertThat(value).as(name).isNotNull();
            Duration timeout = Duration.parse("PT" + value.toString().toUpperCase(java.util.Locale.ROOT));
            assertThat(timeout).as(name).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(30));
        }
    }

    @Test
    void aClientThatSendsHalfARequestIsCutOff() throws Exception {
        assertCutOff("POST /api/texts HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Le");
    }

    @Test
    void anIdleKeepAliveConnectionIsClosed() throws Exception {
        // A whole request, answered; the connection then stays idle and must be closed.
        assertCutOff("GET /actuator/health HTTP/1.1\r\nHost: localhost\r\n\r\n");
    }

    @Test
    void aBodyThatStallsIsAnsweredWithAProblemOf408AndCountsNothing() throws Exception {
        String body = "stalled stalled";
        String answer = answerTo("POST /api/texts HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\n"
                + "Content-Length: 100\r\nConnection: close\r\n\r\n" + body);
        assertThat(answer).startsWith("HTTP/1.1 408");
        assertThat(answer).contains("application/problem+json").contains("urn:wordstats:problem:request-timeout");
        String word = answerTo("GET /api/words/stalled HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        assertThat(word).startsWith("HTTP/1.1 200").containsPattern("\"count\"\\s*:\\s*0");
    }

    /** Sends {@code request} and reads the answer until the server closes the connection. */
    private String answerTo(String request) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout((int) CUT_OFF_WITHIN.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Sends {@code start}, then nothing: the server must close the connection within the bound. */
    private void assertCutOff(String start) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout((int) CUT_OFF_WITHIN.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(start.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            long began = System.nanoTime();
            try {
                while (in.read() != -1) {
                    // an answer (the whole request's, or a 400/408) may come first; then the close
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the server kept the connection open for " + CUT_OFF_WITHIN, e);
            } catch (java.net.SocketException e) {
                // reset by the server: cut off as well
            }
            assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(CUT_OFF_WITHIN);
        }
    }
}
