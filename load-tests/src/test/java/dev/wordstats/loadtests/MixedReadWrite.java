package dev.wordstats.loadtests;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.jmesPath;
import static io.gatling.javaapi.core.CoreDsl.percent;
import static io.gatling.javaapi.core.CoreDsl.randomSwitch;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import java.time.Duration;

/**
 * Mixed read/write: writers post texts and batches while readers look words up
 * ({@code GET /api/words/{word}}, words drawn from the same Zipf vocabulary) and read the top list
 * ({@code GET /api/words/top}), both in closed loops with a short think time. Reads are read sections
 * of the stripe guards (a lookup enters one stripe, the top list every stripe in turn): with an exclusive
 * lock type they exclude each other and the writes, with a reader-writer type only the writes.
 *
 * <pre>
 * ./mvnw -pl load-tests -am -Pload verify -DskipTests -Dsimulation=MixedReadWrite -Dusers=16 -Dreaders=32
 * </pre>
 *
 * Parameters: {@code baseUrl}, {@code users} (16 writers), {@code readers} (32),
 * {@code durationSeconds} (10), {@code vocabulary} (5000), {@code zipfExponent} (1.0),
 * {@code wordsPerText} (30), {@code batchLines} (8), {@code batchPercent} (20),
 * {@code topPercent} (20, share of reads that fetch the top list), {@code topLimit} (10),
 * {@code thinkMillis} (5), {@code seed} (42), {@code p99Millis} (2000).
 */
public class MixedReadWrite extends CountingSimulation {

    private final int writers;
    private final int readers;
    private final Duration duration = Duration.ofSeconds(params.positiveInt("durationSeconds", 10));
    private final int vocabulary = params.positiveInt("vocabulary", 5_000);
    private final double zipfExponent = params.nonNegative("zipfExponent", 1.0);
    private final int wordsPerText = params.positiveInt("wordsPerText", 30);
    private final int batchLines = params.positiveInt("batchLines", 8);
    private final double batchPercent = Math.min(100.0, params.nonNegative("batchPercent", 20));
    private final double topPercent = Math.min(100.0, params.nonNegative("topPercent", 20));
    private final int topLimit = params.positiveInt("topLimit", 10);
    private final Duration think = Duration.ofMillis((long) params.nonNegative("thinkMillis", 5));

    public MixedReadWrite() {
        this(16, 32);
    }

    /**
     * As the default, with other defaults for the writer and reader counts (the {@code users} and
     * {@code readers} properties).
     */
    protected MixedReadWrite(int defaultWriters, int defaultReaders) {
        writers = params.positiveInt("users", defaultWriters);
        readers = params.positiveInt("readers", defaultReaders);
        Corpus corpus = new Corpus(seed, vocabulary, zipfExponent);
        ScenarioBuilder write = scenario("writers")
                .during(duration, false)
                .on(randomSwitch()
                        .on(
                                percent(100.0 - batchPercent).then(postText(corpus.texts(wordsPerText))),
                                percent(batchPercent).then(postBatch(corpus.batches(batchLines, wordsPerText))))
                        .pause(think));

        ChainBuilder lookUp = feed(corpus.words())
                .exec(http("GET /api/words/{word}")
                        .get(session -> "/api/words/" + session.getString("word"))
                        .check(
                                status().is(200),
                                jmesPath("word").is(session -> session.getString("word")),
                                jmesPath("count").ofLong().gte(0L)));
        ChainBuilder top = exec(http("GET /api/words/top")
                .get("/api/words/top?limit=" + topLimit)
                .check(status().is(200), jmesPath("length(@)").ofInt().lte(topLimit)));
        ScenarioBuilder read = scenario("readers")
                .during(duration, false)
                .on(randomSwitch()
                        .on(
                                percent(100.0 - topPercent).then(lookUp),
                                percent(topPercent).then(top))
                        .pause(think));

        setUp(write.injectOpen(atOnceUsers(writers)).andThen(nothingLost()), read.injectOpen(atOnceUsers(readers)))
                .protocols(httpProtocol)
                .assertions(assertionsForRun());
    }
}
