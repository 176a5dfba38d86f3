package dev.wordstats.loadtests.compare;

import static dev.wordstats.loadtests.compare.PrometheusText.label;

import java.util.OptionalDouble;
import java.util.function.Predicate;

/**
 * The service's own HTTP figures of one run by kind of request, read from its
 * {@code http_server_requests_seconds} histogram (percentile histograms are on for it in the service's
 * application.yml) on the page after the load less the page after the warm-up: reads are
 * {@code GET /api/words/{word}} (lookups) and {@code GET /api/words/top}, writes {@code POST /api/texts}
 * and {@code POST /api/texts/batch}. Only answers with a 2xx status count: every simulation expects 200
 * from all four, so any other answer is a failed request that fails the run and leaves its figures out.
 * Gatling's figures are global, over reads and writes together; these split them, measured where the
 * service answers (without the client's and the loopback's share).
 *
 * @param lookups {@code GET /api/words/{word}}
 * @param top {@code GET /api/words/top}
 * @param reads both read kinds together
 * @param writes {@code POST /api/texts} and {@code POST /api/texts/batch} together
 */
record ServerRequests(Kind lookups, Kind top, Kind reads, Kind writes) {

    static final String HISTOGRAM = "http_server_requests_seconds";

    /**
     * The least share of reads among the run's reads and writes for the run to count as one with reads. A
     * load of writes alone still has a few reads: the nothing-lost check looks up 8 words after the load.
     */
    static final double READ_SHARE_OF_A_LOAD_WITH_READS = 0.01;

    /**
     * One kind of request.
     *
     * @param requests answers with a 2xx status during the run; 0 when the service answered none
     * @param p99Seconds their p99, interpolated in the histogram's buckets as Prometheus does; empty
     *     without any
     */
    record Kind(OptionalDouble requests, OptionalDouble p99Seconds) {

        static Kind none() {
            return new Kind(OptionalDouble.empty(), OptionalDouble.empty());
        }

        /** The requests per second over {@code seconds}; empty when either is unknown. */
        OptionalDouble perSecond(OptionalDouble seconds) {
            if (requests.isEmpty() || seconds.isEmpty() || seconds.getAsDouble() <= 0) {
                return OptionalDouble.empty();
            }
            return OptionalDouble.of(requests.getAsDouble() / seconds.getAsDouble());
        }
    }

    static ServerRequests from(PrometheusText page, String lock) {
        if (!page.has(HISTOGRAM + "_count")) {
            return none();
        }
        Predicate<PrometheusText.Sample> ofLock = sample -> !sample.labels().containsKey("lock")
                || lock.equals(sample.labels().get("lock"));
        Predicate<PrometheusText.Sample> answered =
                ofLock.and(sample -> sample.labels().getOrDefault("status", "").startsWith("2"));
        Predicate<PrometheusText.Sample> lookups =
                answered.and(label("method", "GET")).and(label("uri", "/api/words/{word}"));
        Predicate<PrometheusText.Sample> top =
                answered.and(label("method", "GET")).and(label("uri", "/api/words/top"));
        Predicate<PrometheusText.Sample> writes = answered.and(label("method", "POST"))
                .and(label("uri", "/api/texts").or(label("uri", "/api/texts/batch")));
        return new ServerRequests(
                kind(page, lookups), kind(page, top), kind(page, lookups.or(top)), kind(page, writes));
    }

    private static Kind kind(PrometheusText page, Predicate<PrometheusText.Sample> filter) {
        OptionalDouble requests = page.sum(HISTOGRAM + "_count", filter);
        return new Kind(
                requests.isPresent() ? requests : OptionalDouble.of(0),
                page.histogramQuantile(HISTOGRAM, 0.99, filter));
    }

    /**
     * Whether reads were part of the load: at least {@value #READ_SHARE_OF_A_LOAD_WITH_READS} of the run's
     * reads and writes. The report shows the figures by kind only for comparisons with such runs.
     */
    boolean hasReads() {
        if (reads.requests().isEmpty()) {
            return false;
        }
        double r = reads.requests().getAsDouble();
        double all = r + writes.requests().orElse(0);
        return all > 0 && r >= READ_SHARE_OF_A_LOAD_WITH_READS * all;
    }

    static ServerRequests none() {
        return new ServerRequests(Kind.none(), Kind.none(), Kind.none(), Kind.none());
    }
}
