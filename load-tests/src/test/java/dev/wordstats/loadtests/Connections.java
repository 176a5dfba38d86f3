package dev.wordstats.loadtests;

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
 * in {@code nstat}). Start it with {@code --server.tomcat.max-connections=12000
 * --server.tomcat.accept-count=4096} (the kernel caps the queue at {@code net.core.somaxconn},
 * 4096 here); the comparison runner passes both. Idle connections must be kept longer than
 * {@code thinkSeconds} (Tomcat keeps them for its connection timeout, 60 s by default).
 *
 * <pre>
 * ./mvnw -pl load-tests -am -Pload verify -DskipTests -Dsimulation=Connections -Dusers=10000
 * </pre>
 *
 * Parameters: {@code baseUrl}, {@code users} (10000), {@code rampSeconds} (30),
 * {@code thinkSeconds} (20), {@code requestsPerUser} (3), {@code vocabulary} (1000),
 * {@code wordsPerText} (8), {@code seed} (42), {@code p99Millis} (10000). With the defaults all
 * 10,000 users are connected from second 30 to second 60, at about 500 requests a second.
 */
public class Connections extends CountingSimulation {

    private final int users = params.positiveInt("users", 10_000);
    private final Duration ramp = Duration.ofSeconds(params.positiveInt("rampSeconds", 30));
    private final Duration think = Duration.ofSeconds(params.positiveInt("thinkSeconds", 20));
    private final int requestsPerUser = params.positiveInt("requestsPerUser", 3);
    private final int vocabulary = params.positiveInt("vocabulary", 1_000);
    private final int wordsPerText = params.positiveInt("wordsPerText", 8);

    /** The claim here is "every connection held and answered", not speed: 10 s by default. */
    @Override
    int defaultP99Millis() {
        return 10_000;
    }

    {
        Corpus corpus = new Corpus(seed, vocabulary, 1.0);
        ScenarioBuilder holders = scenario("connection holders")
                .repeat(requestsPerUser).on(postText(corpus.texts(wordsPerText)).pause(think));

        setUp(holders.injectOpen(rampUsers(users).during(ramp)).andThen(nothingLost()))
                .protocols(httpProtocol)
                .assertions(assertionsForRun());
    }
}
