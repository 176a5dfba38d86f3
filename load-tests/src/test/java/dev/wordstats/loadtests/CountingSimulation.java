package dev.wordstats.loadtests;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.foreach;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.jmesPath;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * What every simulation shares: parameters, the loopback-only base URL, the requests that post
 * words and tally what the service acknowledged, and the "nothing lost" check.
 *
 * <p>Nothing lost: {@link #before()} clears the service's counts; each text or batch that gets a
 * 2xx adds its words (counted with the service's tokenizer rules, {@link Tokens}) to a
 * {@link WordTally}; once the load population is done, a last one-user scenario reads
 * {@code GET /api/stats} and a sample of {@code GET /api/words/{word}} and checks them against the
 * tally. A mismatch is a failed request, and the {@code 0 failed requests} assertion then fails
 * the run: Gatling exits non-zero and the Maven build fails.
 */
public abstract class CountingSimulation extends Simulation {

    static final String TOTAL_REQUEST = "nothing lost: GET /api/stats total";
    static final String WORD_REQUEST = "nothing lost: GET /api/words/{word}";
    /** The field of {@code GET /api/stats} that holds the number of words counted. */
    static final String STATS_TOTAL_FIELD = "totalWords";

    final Params params = new Params();
    final URI baseUrl = Loopback.requireLoopback(params.string("baseUrl", "http://127.0.0.1:8080"));
    final long seed = params.longValue("seed", 42);
    final int p99Millis = params.positiveInt("p99Millis", defaultP99Millis());
    final WordTally sent = new WordTally();

    final HttpProtocolBuilder httpProtocol = http.baseUrl(baseUrl.toString().replaceAll("/+$", ""))
            .acceptHeader("application/json")
            .userAgentHeader("wordstats-load-tests")
            .disableWarmUp();

    /** The p99 bound (ms) when -Dp99Millis is not given. Called during construction: return a constant. */
    int defaultP99Millis() {
        return 2_000;
    }

    /*
     * The tally step must run after every acknowledged request: loops around these chains use
     * during(..., exitASAP = false), or a user could be stopped between the answer and the tally.
     */

    /** Posts the fed {@code text} as text/plain and tallies its {@code words} on a 2xx. */
    ChainBuilder postText(Iterator<Map<String, Object>> texts) {
        return postText(texts, "POST /api/texts");
    }

    /** {@link #postText(Iterator)} under another request name in the report. */
    ChainBuilder postText(Iterator<Map<String, Object>> texts, String requestName) {
        return feed(texts)
                .exec(http(requestName)
                        .post("/api/texts")
                        .header("Content-Type", "text/plain; charset=UTF-8")
                        .body(StringBody(session -> session.getString("text")))
                        .check(
                                status().is(200).saveAs("status"),
                                jmesPath("words")
                                        .ofInt()
                                        .is(session -> session.getList("words").size())))
                .exec(this::tallyIfAcknowledged);
    }

    /** Posts the fed {@code batch} body and tallies its {@code words} on a 2xx. */
    ChainBuilder postBatch(Iterator<Map<String, Object>> batches) {
        return feed(batches)
                .exec(http("POST /api/texts/batch")
                        .post("/api/texts/batch")
                        .body(StringBody(session -> session.getString("batch")))
                        .asJson()
                        .check(
                                status().is(200).saveAs("status"),
                                jmesPath("lines").ofInt().is(session -> session.getInt("lines")),
                                jmesPath("words")
                                        .ofInt()
                                        .is(session -> session.getList("words").size())))
                .exec(this::tallyIfAcknowledged);
    }

    private Session tallyIfAcknowledged(Session session) {
        if (session.contains("status")) {
            int status = session.getInt("status");
            if (status >= 200 && status < 300) {
                sent.add(session.getList("words"));
            }
        }
        return session.remove("status");
    }

    /** The name of {@link #nothingLost()}'s scenario, which runs after the load. */
    public static final String NOTHING_LOST_SCENARIO = "nothing lost";

    /** The one-user scenario that compares the service's counts with the tally. */
    PopulationBuilder nothingLost() {
        return scenario(NOTHING_LOST_SCENARIO)
                .exec(http(TOTAL_REQUEST)
                        .get("/api/stats")
                        .check(
                                status().is(200),
                                jmesPath(STATS_TOTAL_FIELD).ofLong().is(session -> sent.total())))
                .exec(session -> session.set("sample", sent.sample(seed, 8)))
                .exec(foreach("#{sample}", "sampled")
                        .on(exec(http(WORD_REQUEST)
                                .get(session -> "/api/words/" + session.getString("sampled"))
                                .check(
                                        status().is(200),
                                        jmesPath("count")
                                                .ofLong()
                                                .is(session -> sent.count(session.getString("sampled")))))))
                .injectOpen(atOnceUsers(1));
    }

    /** No failed request (the nothing-lost requests included), p99 under the bound, and the check ran. */
    List<Assertion> assertionsForRun() {
        return List.of(
                global().failedRequests().count().is(0L),
                global().responseTime().percentile(99.0).lt(p99Millis),
                details(TOTAL_REQUEST).allRequests().count().is(1L));
    }

    @Override
    public void before() {
        System.out.println("[wordstats] " + getClass().getSimpleName() + " " + params.summary());
        HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try {
            HttpResponse<String> response = client.send(
                    HttpRequest.newBuilder(baseUrl.resolve("/api/words"))
                            .header("Authorization", AdminCredential.given().basicHeader())
                            .DELETE()
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new IllegalStateException(
                        "DELETE /api/words answered " + response.statusCode() + ": " + response.body());
            }
        } catch (IOException e) {
            throw new IllegalStateException(
                    "cannot reset the counts at " + baseUrl + " (is the service running?): " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while resetting the counts", e);
        } finally {
            client.close();
        }
        System.out.println("[wordstats] counts reset at " + baseUrl);
    }

    @Override
    public void after() {
        System.out.printf(
                "[wordstats] nothing lost: %d words (%d distinct) acknowledged in %d requests;"
                        + " the '%s' and '%s' requests compared them with the service%n",
                sent.total(), sent.distinct(), sent.requests(), TOTAL_REQUEST, WORD_REQUEST);
    }
}
