package dev.wordstats.loadtests.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * Reads and writes apart, from two scrapes of a {@code NUMA_RW} service (test resources beside this class):
 * after the warm-up, which posted 1000 texts, and after a load that added 900 lookups and 50 lookups answered
 * 404, 100 top lists, 800 texts and 200 batches, one {@code GET /api/stats} and one {@code DELETE /api/words};
 * 200 slow-path read waits and 100 slow-path write waits (beside many fast-path ones).
 */
class ReadWriteFiguresTest {

    private static PrometheusText scrape(String name) throws IOException {
        try (InputStream in = ReadWriteFiguresTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return PrometheusText.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    private static PrometheusText run() throws IOException {
        return scrape("numa-rw-after-load.txt").since(scrape("numa-rw-after-warmup.txt"));
    }

    @Test
    void requestsOfEachKindAreTheRunsTwoHundredsWithoutTheWarmUp() throws IOException {
        ServerRequests server = ServerRequests.from(run(), "NUMA_RW");

        // the 404s, /api/stats, DELETE /api/words and the scrapes are no kind; the warm-up's posts are before
        assertThat(server.lookups().requests()).hasValue(900.0);
        assertThat(server.top().requests()).hasValue(100.0);
        assertThat(server.reads().requests()).hasValue(1000.0);
        assertThat(server.writes().requests()).hasValue(1000.0);
        assertThat(server.hasReads()).isTrue();
        assertThat(server.reads().perSecond(OptionalDouble.of(10)).getAsDouble())
                .isCloseTo(100.0, within(1e-9));
        assertThat(server.reads().perSecond(OptionalDouble.empty())).isEmpty();
    }

    @Test
    void theP99OfEachKindIsInterpolatedInItsOwnBuckets() throws IOException {
        ServerRequests server = ServerRequests.from(run(), "NUMA_RW");

        // lookups: rank 891 of 900, 890 at or under 4.19 ms, 10 up to 8.39 ms -> 1/10 into that bucket
        assertThat(server.lookups().p99Seconds().getAsDouble())
                .isCloseTo(0.004194304 + (0.008388607 - 0.004194304) * 0.1, within(1e-12));
        // top lists: rank 99 of 100, 90 at or under 8.39 ms, 10 up to 16.8 ms -> 9/10 into it
        assertThat(server.top().p99Seconds().getAsDouble())
                .isCloseTo(0.008388607 + (0.016777216 - 0.008388607) * 0.9, within(1e-12));
        // reads together: rank 990 of 1000, 950 at or under 4.19 ms and 990 at or under 8.39 ms -> its bound
        assertThat(server.reads().p99Seconds().getAsDouble()).isCloseTo(0.008388607, within(1e-12));
        // texts and batches: rank 990 of 1000, 980 at or under 16.8 ms, 20 up to 33.6 ms -> half into it
        assertThat(server.writes().p99Seconds().getAsDouble())
                .isCloseTo(0.016777216 + (0.033554432 - 0.016777216) * 0.5, within(1e-12));
    }

    @Test
    void slowPathLockWaitsAreSplitByAccessAndTheCombinedOnesStayTheirSum() throws IOException {
        LockMetrics metrics = LockMetrics.from(run(), "NUMA_RW");

        // reads: rank 198 of 200, 190 at or under 10.5 µs, 10 up to 105 µs -> 8/10 into it
        assertThat(metrics.readWaits().p99Seconds().getAsDouble())
                .isCloseTo(1.0485759e-5 + (1.048576e-4 - 1.0485759e-5) * 0.8, within(1e-15));
        assertThat(metrics.readWaits().maxSeconds()).hasValue(9.0e-5);
        // writes: rank 99 of 100, 95 at or under 105 µs, 5 up to 1.05 ms -> 4/5 into it
        assertThat(metrics.writeWaits().p99Seconds().getAsDouble())
                .isCloseTo(1.048576e-4 + (0.001048576 - 1.048576e-4) * 0.8, within(1e-15));
        assertThat(metrics.writeWaits().maxSeconds()).hasValue(9.0e-4);
        // both: rank 297 of 300, 295 at or under 105 µs, 5 up to 1.05 ms -> 2/5 into it; the larger max
        assertThat(metrics.waitP99Seconds().getAsDouble())
                .isCloseTo(1.048576e-4 + (0.001048576 - 1.048576e-4) * 0.4, within(1e-15));
        assertThat(metrics.waitMaxSeconds()).hasValue(9.0e-4);
        assertThat(metrics.waitMaxBucketSeconds()).hasValue(0.001048576);
    }

    @Test
    void anExclusiveLockTypeHasNoReadWaitsAndALoadOfWritesHasNoReads() throws IOException {
        PrometheusText page = scrape("synchronized-high-contention.txt");

        ServerRequests server = ServerRequests.from(page, "SYNCHRONIZED");
        LockMetrics metrics = LockMetrics.from(page, "SYNCHRONIZED");

        assertThat(server.lookups().requests()).hasValue(8.0);
        assertThat(server.top().requests()).hasValue(0.0);
        assertThat(server.top().p99Seconds()).isEmpty();
        assertThat(server.hasReads()).as("8 lookups beside 4000 posts").isFalse();
        assertThat(metrics.readWaits().p99Seconds()).isEmpty();
        assertThat(metrics.readWaits().maxSeconds()).isEmpty();
        assertThat(metrics.writeWaits().maxSeconds()).hasValue(0.002);
        assertThat(metrics.writeWaits().p99Seconds()).isEqualTo(metrics.waitP99Seconds());
    }

    @Test
    void aServiceWithoutTheHttpHistogramHasNoFiguresByKind() {
        ServerRequests server = ServerRequests.from(PrometheusText.parse("process_cpu_time_ns_total 1.0E9\n"), "A");

        assertThat(server.reads().requests()).isEmpty();
        assertThat(server.writes().p99Seconds()).isEmpty();
        assertThat(server.hasReads()).isFalse();
    }
}
