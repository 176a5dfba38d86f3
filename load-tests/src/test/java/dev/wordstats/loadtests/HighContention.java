package dev.wordstats.loadtests;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.percent;
import static io.gatling.javaapi.core.CoreDsl.randomSwitch;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.ScenarioBuilder;
import java.time.Duration;

/**
 * High contention: a tiny hot vocabulary (6 words by default, so at most 6 stripes are ever
 * locked), many users posting texts and batches back to back with no think time, in a closed
 * model (each user keeps its connection and sends the next request as soon as the last answered).
 *
 * <pre>
 * ./mvnw -pl load-tests -am -Pload verify -DskipTests -Dsimulation=HighContention -Dusers=64 -DdurationSeconds=30
 * </pre>
 *
 * Parameters: {@code baseUrl}, {@code users} (64), {@code durationSeconds} (10), {@code vocabulary}
 * (6), {@code wordsPerText} (20), {@code batchLines} (16), {@code batchPercent} (20), {@code seed}
 * (42), {@code p99Millis} (2000).
 */
public class HighContention extends CountingSimulation {

    private final int users = params.positiveInt("users", 64);
    private final Duration duration = Duration.ofSeconds(params.positiveInt("durationSeconds", 10));
    private final int vocabulary = params.positiveInt("vocabulary", 6);
    private final int wordsPerText = params.positiveInt("wordsPerText", 20);
    private final int batchLines = params.positiveInt("batchLines", 16);
    private final double batchPercent = Math.min(100.0, params.nonNegative("batchPercent", 20));

    {
        Corpus corpus = new Corpus(seed, vocabulary, 0.0);
        ScenarioBuilder writers = scenario("high contention writers")
                .during(duration, false)
                .on(randomSwitch()
                        .on(
                                percent(100.0 - batchPercent).then(postText(corpus.texts(wordsPerText))),
                                percent(batchPercent).then(postBatch(corpus.batches(batchLines, wordsPerText)))));

        setUp(writers.injectOpen(atOnceUsers(users)).andThen(nothingLost()))
                .protocols(httpProtocol)
                .assertions(assertionsForRun());
    }
}
