package dev.wordstats.loadtests;

import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.ScenarioBuilder;
import java.time.Duration;

/**
 * Many connections: {@code users} (10,000 by default) arrive over {@code rampSeconds}, each keeps
 * its own keep-alive connection and posts a short text every {@code thinkSeconds}, {@code requestsPerUser}
 * times. With think time × requests longer than the ramp, every user is connected at once at the
 * end of the ramp: the service holds them all on virtual threads (one per request, none parked
 * while a connection idles).
 *
 * <p>Both ends need a file descriptor per connection: check {@code ulimit -n} (here 20,000 soft
 * and hard, enough for 10,000). The service must accept that many connections: Tomcat's default
 * {@code server.tomcat.max-connections} is 8,192, and its default accept queue
 * ({@code server.tomcat.accept-count}, 100) overflows when hundreds of connections a second
 * arrive, so SYNs are dropped and retried after 1, 3, 7, 15 s (seen as {@code TcpExtListenOverflows}
 * in {@code nstat}). The service's application.yml sets {@code max-connections: 12000} and
 * {@code accept-count: 4096} (the kernel caps the queue at {@code net.core.somaxconn}, 4096 here);
 * the comparison runner passes both explicitly. Idle connections must be kept longer than
 * {@code thinkSeconds} (Tomcat keeps them for its connection timeout, 60 s by default).
 *
 * <pre>
 * ./mvnw -pl load-tests -am -Pload verify -DskipTests -Dsimulation=Connections -Dusers=10000
 * </pre>
 *
 * Parameters: {@code baseUrl}, {@code users} (10000), {@code rampSeconds} (30),
 * {@code thinkSeconds} (20), {@code requestsPerUser} (3), {@code vocabulary} (1000),
 * {@code wordsPerText} (8), {@code seed} (42), {@code p99Millis} (2000, for requests on held
 * connections), {@code connectP99Millis} (30000, for each user's first request, which opens its
 * connection while thousands of others do too). With the defaults all
 * 10,000 users are connected from second 30 to second 60, at about 500 requests a second.
 */
public class Connections extends CountingSimulation {

    private final int users = params.positiveInt("users", 10_000);
    private final Duration ramp = Duration.ofSeconds(params.positiveInt("rampSeconds", 30));
    private final Duration think = Duration.ofSeconds(params.positiveInt("thinkSeconds", 20));
    private final int requestsPerUser = Math.max(2, params.positiveInt("requestsPerUser", 3));
    private final int vocabulary = params.positiveInt("vocabulary", 1_000);
    private final int wordsPerText = params.positiveInt("wordsPerText", 8);

    private final int connectP99Millis = params.positiveInt("connectP99Millis", 30_000);

    static final String FIRST = "POST /api/texts (opens the connection)";
    static final String HELD = "POST /api/texts (on the held connection)";

    {
        Corpus corpus = new Corpus(seed, vocabulary, 1.0);
        var texts = corpus.texts(wordsPerText);
        ScenarioBuilder holders = scenario("connection holders")
                .exec(postText(texts, FIRST).pause(think))
                .repeat(requestsPerUser - 1)
                .on(postText(texts, HELD).pause(think));

        // p99Millis bounds the requests on held connections; the first request of each user also
        // pays for TCP connect and accept while thousands of connections arrive, so it has its
        // own, looser bound (connectP99Millis) and both are reported apart.
        setUp(holders.injectOpen(rampUsers(users).during(ramp)).andThen(nothingLost()))
                .protocols(httpProtocol)
                .assertions(
                        global().failedRequests().count().is(0L),
                        details(HELD).responseTime().percentile(99.0).lt(p99Millis),
                        details(FIRST).responseTime().percentile(99.0).lt(connectP99Millis),
                        details(TOTAL_REQUEST).allRequests().count().is(1L));
    }
}
