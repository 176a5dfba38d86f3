package dev.wordstats.loadtests.compare;

import static dev.wordstats.loadtests.compare.PrometheusText.label;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    private static final String PAGE = """
            # HELP wordstats_lock_acquisitions_total Stripe lock acquisitions
            # TYPE wordstats_lock_acquisitions_total counter
            wordstats_lock_acquisitions_total{application="wordstats",lock="NUMA_MCS",path="fast"} 900.0
            wordstats_lock_acquisitions_total{application="wordstats",lock="NUMA_MCS",path="slow"} 100.0
            wordstats_lock_handoffs_total{application="wordstats",lock="NUMA_MCS",locality="cross_node"} 40.0
            wordstats_lock_handoffs_total{application="wordstats",lock="NUMA_MCS",locality="same_node"} 60.0
            wordstats_lock_wait_seconds_bucket{application="wordstats",lock="NUMA_MCS",le="0.001"} 50.0
            wordstats_lock_wait_seconds_bucket{application="wordstats",lock="NUMA_MCS",le="0.002"} 90.0
            wordstats_lock_wait_seconds_bucket{application="wordstats",lock="NUMA_MCS",le="0.004"} 100.0
            wordstats_lock_wait_seconds_bucket{application="wordstats",lock="NUMA_MCS",le="+Inf"} 100.0
            wordstats_lock_wait_seconds_count{application="wordstats",lock="NUMA_MCS"} 100.0
            wordstats_lock_wait_seconds_max{application="wordstats",lock="NUMA_MCS"} 0.0035
            odd_label{text="a \\"quoted\\", comma",other="x"} 1.5
            """;

    @Test
    void readsLockFiguresOfOneLockType() {
        LockMetrics metrics = LockMetrics.from(PrometheusText.parse(PAGE), "NUMA_MCS");
        assertThat(metrics.crossNodeHandoffs()).hasValue(40.0);
        assertThat(metrics.sameNodeHandoffs()).hasValue(60.0);
        assertThat(metrics.slowPathShare().getAsDouble()).isCloseTo(0.1, within(1e-9));
        assertThat(metrics.waitMaxSeconds()).hasValue(0.0035);
        // rank 99 of 100 falls in (0.002, 0.004]: 90 below, 10 inside -> 0.002 + 0.002 * 9/10
        assertThat(metrics.waitP99Seconds().getAsDouble()).isCloseTo(0.0038, within(1e-9));
        assertThat(metrics.waitMaxBucketSeconds()).hasValue(0.004);
    }

    @Test
    void theMaxBucketOfARunIsTheHighestBucketItAddedAWaitTo() {
        // before the run: waits up to 4 ms; the run adds 30 waits, all at or under 2 ms
        String later = PAGE.replace("le=\"0.001\"} 50.0", "le=\"0.001\"} 70.0")
                .replace("le=\"0.002\"} 90.0", "le=\"0.002\"} 120.0")
                .replace("le=\"0.004\"} 100.0", "le=\"0.004\"} 130.0")
                .replace("le=\"+Inf\"} 100.0", "le=\"+Inf\"} 130.0");
        PrometheusText run = PrometheusText.parse(later).since(PrometheusText.parse(PAGE));
        assertThat(run.highestOccupiedBucketBound("wordstats_lock_wait_seconds", s -> true))
                .hasValue(0.002);
        // the whole page: the 4 ms bucket holds waits
        assertThat(PrometheusText.parse(PAGE).highestOccupiedBucketBound("wordstats_lock_wait_seconds", s -> true))
                .hasValue(0.004);
        assertThat(PrometheusText.parse("x 1\n").highestOccupiedBucketBound("wordstats_lock_wait_seconds", s -> true))
                .isEmpty();
    }

    @Test
    void waitP99InTheLowestBucketIsShownAsAnUpperBound() {
        LockMetrics metrics = LockMetrics.from(PrometheusText.parse("""
                wordstats_lock_wait_seconds_bucket{lock="FAIR_REENTRANT",le="0.001"} 999.0
                wordstats_lock_wait_seconds_bucket{lock="FAIR_REENTRANT",le="0.002"} 1000.0
                wordstats_lock_wait_seconds_bucket{lock="FAIR_REENTRANT",le="+Inf"} 1000.0
                """), "FAIR_REENTRANT");
        assertThat(metrics.waitP99Text()).isEqualTo("≤ 1.00 ms");
        assertThat(LockMetrics.from(PrometheusText.parse(PAGE), "NUMA_MCS").waitP99Text())
                .isEqualTo("3.80 ms");
    }

    @Test
    void figuresOfAnotherLockTypeAreAbsent() {
        LockMetrics metrics = LockMetrics.from(PrometheusText.parse(PAGE), "FAIR_REENTRANT");
        assertThat(metrics.crossNodeHandoffs()).isEmpty();
        assertThat(metrics.waitP99Seconds()).isEmpty();
    }

    @Test
    void sinceSubtractsCountersAndBucketsButKeepsGauges() {
        PrometheusText earlier = PrometheusText.parse("""
                wordstats_lock_handoffs_total{application="wordstats",lock="NUMA_MCS",locality="cross_node"} 15.0
                wordstats_lock_wait_seconds_bucket{application="wordstats",lock="NUMA_MCS",le="0.001"} 50.0
                wordstats_lock_wait_seconds_bucket{application="wordstats",lock="NUMA_MCS",le="0.002"} 50.0
                wordstats_lock_wait_seconds_bucket{application="wordstats",lock="NUMA_MCS",le="0.004"} 50.0
                wordstats_lock_wait_seconds_bucket{application="wordstats",lock="NUMA_MCS",le="+Inf"} 50.0
                wordstats_lock_wait_seconds_max{application="wordstats",lock="NUMA_MCS"} 0.5
                """);
        PrometheusText delta = PrometheusText.parse(PAGE).since(earlier);
        assertThat(delta.sum("wordstats_lock_handoffs_total", label("locality", "cross_node")))
                .hasValue(25.0);
        assertThat(delta.max("wordstats_lock_wait_seconds_max", s -> true)).hasValue(0.0035);
        // 50 new samples: 0 at or below 1 ms, 40 up to 2 ms, 10 up to 4 ms -> p50 at 1 ms + 25/40 of 1 ms
        assertThat(delta.histogramQuantile("wordstats_lock_wait_seconds", 0.5, s -> true)
                        .getAsDouble())
                .isCloseTo(0.001625, within(1e-9));
    }

    @Test
    void parsesEscapedLabelValues() {
        PrometheusText page = PrometheusText.parse(PAGE);
        assertThat(page.sum("odd_label", label("text", "a \"quoted\", comma"))).hasValue(1.5);
    }
}
