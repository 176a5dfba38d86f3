package dev.wordstats.loadtests;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.ScenarioBuilder;
import java.time.Duration;

/**
 * Low contention: a large vocabulary (50,000 words by default) drawn with a Zipf distribution, so
 * requests spread over all stripes, in an open model: {@code rate} new users a second, each
 * posting {@code requestsPerUser} texts with a random think time between them.
 *
 * <pre>
 * ./mvnw -pl load-tests -am -Pload verify -DskipTests -Dsimulation=LowContention -Drate=50 -DdurationSeconds=60
 * </pre>
 *
 * Parameters: {@code baseUrl}, {@code rate} (20 users/s), {@code durationSeconds} (10),
 * {@code requestsPerUser} (5), {@code vocabulary} (50000), {@code zipfExponent} (1.0),
 * {@code wordsPerText} (50), {@code thinkMinMillis} (100), {@code thinkMaxMillis} (500),
 * {@code seed} (42), {@code p99Millis} (2000).
 */
public class LowContention extends CountingSimulation {

    private final double rate = params.nonNegative("rate", 20);
    private final Duration duration = Duration.ofSeconds(params.positiveInt("durationSeconds", 10));
    private final int requestsPerUser = params.positiveInt("requestsPerUser", 5);
    private final int vocabulary = params.positiveInt("vocabulary", 50_000);
    private final double zipfExponent = params.nonNegative("zipfExponent", 1.0);
    private final int wordsPerText = params.positiveInt("wordsPerText", 50);
    private final int thinkMinMillis = params.positiveInt("thinkMinMillis", 100);
    private final int thinkMaxMillis = Math.max(thinkMinMillis, params.positiveInt("thinkMaxMillis", 500));

    {
        Corpus corpus = new Corpus(seed, vocabulary, zipfExponent);
        ScenarioBuilder writers = scenario("low contention writers")
                .repeat(requestsPerUser)
                .on(postText(corpus.texts(wordsPerText))
                        .pause(Duration.ofMillis(thinkMinMillis), Duration.ofMillis(thinkMaxMillis)));

        setUp(writers.injectOpen(constantUsersPerSec(rate).during(duration)).andThen(nothingLost()))
                .protocols(httpProtocol)
                .assertions(assertionsForRun());
    }
}
