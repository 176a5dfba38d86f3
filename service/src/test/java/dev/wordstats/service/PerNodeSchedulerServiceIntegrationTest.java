package dev.wordstats.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * The whole-service flow of {@link ServiceIntegrationTest} with {@code wordstats.numa.scheduler:
 * per-node} on two simulated nodes, and then: {@code /api/topology} shows per-node mode in effect,
 * each node's carriers (named with the node) and requests served on both nodes; the per-node
 * request and lock-acquisition counters are non-zero on both nodes.
 */
@TestPropertySource(properties = {"wordstats.lock.type=NUMA_MCS", "wordstats.numa.scheduler=per-node"})
class PerNodeSchedulerServiceIntegrationTest extends ServiceIntegrationTest {

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    @DynamicPropertySource
    static void twoSimulatedNodes(DynamicPropertyRegistry registry) {
        registry.add(
                "wordstats.numa.simulated-nodes",
                () -> Math.min(2, Runtime.getRuntime().availableProcessors()));
    }

    @Test
    void requestsRunOnBothNodesOwnCarriersAndEachNodeIsCounted() throws Exception {
        int nodes = Math.min(2, Runtime.getRuntime().availableProcessors());
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/api/texts/batch"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"lines\":[\"a b\",\"c d\",\"e f\",\"g h\"]}")));
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        }

        String topology = send(HttpRequest.newBuilder(uri("/api/topology"))).body();
        assertThat(topology).contains("\"active\":\"per-node\"", "\"requested\":\"per-node\"");
        for (int node = 0; node < nodes; node++) {
            assertThat(topology).contains("\"name\":\"wordstats-node" + node + "-carrier-");
            assertThat(number(topology, "\"node\":" + node + ",\"cpus\":\\[[^\\]]*\\],\"requestsServed\":(\\d+)"))
                    .as("requests served on node %d", node)
                    .isPositive();
        }
        assertThat(topology).doesNotContain("\"pinned\":false");

        String prometheus =
                send(HttpRequest.newBuilder(uri("/actuator/prometheus"))).body();
        for (int node = 0; node < nodes; node++) {
            assertThat(number(prometheus, "wordstats_node_requests_total\\{[^}]*node=\"" + node + "\"[^}]*} (\\S+)"))
                    .as("node %d requests", node)
                    .isPositive();
            assertThat(number(
                            prometheus,
                            "wordstats_node_lock_acquisitions_total\\{[^}]*node=\"" + node + "\"[^}]*} (\\S+)"))
                    .as("node %d lock acquisitions", node)
                    .isPositive();
            assertThat(number(prometheus, "wordstats_node_carriers\\{[^}]*node=\"" + node + "\"[^}]*} (\\S+)"))
                    .as("node %d carriers", node)
                    .isPositive();
        }
    }

    private static double number(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertThat(m.find()).as("/%s/ in %s", regex, text).isTrue();
        return Double.parseDouble(m.group(1));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return client.send(
                request.timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}
