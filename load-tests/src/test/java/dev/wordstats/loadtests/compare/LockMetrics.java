package dev.wordstats.loadtests.compare;

import static dev.wordstats.loadtests.compare.PrometheusText.label;

import java.util.OptionalDouble;
import java.util.function.Predicate;

/**
 * The lock figures of one run, read from the service's {@code /actuator/prometheus} page after the load: wait
 * time p99 (from the {@code wordstats_lock_wait_seconds} histogram, of the slow path, {@code path="slow"}, where
 * the service tags it: the acquisitions that really waited), its max (the {@code _max} gauge, a recent window's)
 * and the upper bound of the highest bucket the run added a wait to (a bound on the run's own longest wait),
 * cross-node and same-node handoffs, fast- and slow-path acquisitions, the stripe locks' switches between lean
 * and queued modes ({@code wordstats_lock_mode_switches_total}, for the types that have modes); beside them the
 * CPU time the service's process used ({@code process_cpu_time_ns_total}), which with the run's request count
 * gives the service's CPU per request: on a shared host the share of the CPUs the service gets moves requests/s
 * from run to run, its CPU per request much less. A figure the service does not expose is empty (shown as "n/a").
 *
 * <p>The wait figures above are over both values of the timers' {@code access} tag (their buckets summed, the
 * larger max); {@code readWaits} and {@code writeWaits} split them. The service tags the read sections of a
 * reader-writer lock type {@code access="read"} and every other section {@code access="write"}: with an exclusive
 * type a read request's section is a write section, so the type has no read waits and its write waits are all of
 * its waits.
 */
record LockMetrics(
        OptionalDouble waitP99Seconds,
        OptionalDouble waitLowestBucketSeconds,
        OptionalDouble waitMaxSeconds,
        OptionalDouble waitMaxBucketSeconds,
        OptionalDouble crossNodeHandoffs,
        OptionalDouble sameNodeHandoffs,
        OptionalDouble fastAcquisitions,
        OptionalDouble slowAcquisitions,
        OptionalDouble modeSwitches,
        OptionalDouble serviceCpuSeconds,
        Waits readWaits,
        Waits writeWaits) {

    /**
     * The slow-path waits of one {@code access} value.
     *
     * @param p99Seconds p99, interpolated in the buckets
     * @param maxSeconds the {@code _max} gauge (a recent window's)
     */
    record Waits(OptionalDouble p99Seconds, OptionalDouble maxSeconds) {

        static Waits none() {
            return new Waits(OptionalDouble.empty(), OptionalDouble.empty());
        }
    }

    static LockMetrics from(PrometheusText page, String lock) {
        Predicate<PrometheusText.Sample> ofLock = sample -> !sample.labels().containsKey("lock")
                || lock.equals(sample.labels().get("lock"));
        // the waits of the slow path when the service tags the path; every wait otherwise
        Predicate<PrometheusText.Sample> waits = page.sum("wordstats_lock_wait_seconds_count", label("path", "slow"))
                        .isPresent()
                ? ofLock.and(label("path", "slow"))
                : ofLock;
        return new LockMetrics(
                waitP99(page, waits),
                page.lowestBucketBound("wordstats_lock_wait_seconds", waits),
                page.max("wordstats_lock_wait_seconds_max", waits),
                page.highestOccupiedBucketBound("wordstats_lock_wait_seconds", waits),
                page.sum("wordstats_lock_handoffs_total", ofLock.and(label("locality", "cross_node"))),
                page.sum("wordstats_lock_handoffs_total", ofLock.and(label("locality", "same_node"))),
                page.sum("wordstats_lock_acquisitions_total", ofLock.and(label("path", "fast"))),
                page.sum("wordstats_lock_acquisitions_total", ofLock.and(label("path", "slow"))),
                page.sum("wordstats_lock_mode_switches_total", ofLock),
                ComparisonReport.scale(page.sum("process_cpu_time_ns_total", sample -> true), 1e-9),
                waits(page, waits.and(label("access", "read"))),
                waits(page, waits.and(label("access", "write"))));
    }

    private static OptionalDouble waitP99(PrometheusText page, Predicate<PrometheusText.Sample> waits) {
        OptionalDouble p99 = page.histogramQuantile("wordstats_lock_wait_seconds", 0.99, waits);
        if (p99.isEmpty()) { // a timer published with client-side percentiles instead of buckets
            p99 = page.max("wordstats_lock_wait_seconds", waits.and(label("quantile", "0.99")));
        }
        return p99;
    }

    private static Waits waits(PrometheusText page, Predicate<PrometheusText.Sample> waits) {
        return new Waits(waitP99(page, waits), page.max("wordstats_lock_wait_seconds_max", waits));
    }

    /**
     * The wait p99 as a reader should see it: "≤ 1.00 ms" when it falls in the histogram's lowest
     * bucket, where interpolation would invent a figure the buckets cannot resolve.
     */
    String waitP99Text() {
        if (waitP99Seconds.isPresent()
                && waitLowestBucketSeconds.isPresent()
                && waitP99Seconds.getAsDouble() <= waitLowestBucketSeconds.getAsDouble()) {
            return "≤ " + ComparisonReport.duration(waitLowestBucketSeconds);
        }
        return ComparisonReport.duration(waitP99Seconds);
    }

    /** Slow-path acquisitions over all acquisitions. */
    OptionalDouble slowPathShare() {
        if (fastAcquisitions.isEmpty() || slowAcquisitions.isEmpty()) {
            return OptionalDouble.empty();
        }
        double all = fastAcquisitions.getAsDouble() + slowAcquisitions.getAsDouble();
        return all == 0 ? OptionalDouble.empty() : OptionalDouble.of(slowAcquisitions.getAsDouble() / all);
    }

    /** Cross-node handoffs over all handoffs. */
    OptionalDouble crossNodeShare() {
        if (crossNodeHandoffs.isEmpty() || sameNodeHandoffs.isEmpty()) {
            return OptionalDouble.empty();
        }
        double all = crossNodeHandoffs.getAsDouble() + sameNodeHandoffs.getAsDouble();
        return all == 0 ? OptionalDouble.empty() : OptionalDouble.of(crossNodeHandoffs.getAsDouble() / all);
    }

    /**
     * The service's CPU time per request in seconds, given the requests of the run these figures span
     * (read from the service after the warm-up and again after the load, so the warm-up is not in it).
     */
    OptionalDouble serviceCpuPerRequest(OptionalDouble requests) {
        if (serviceCpuSeconds.isEmpty() || requests.isEmpty() || requests.getAsDouble() <= 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(serviceCpuSeconds.getAsDouble() / requests.getAsDouble());
    }

    static LockMetrics none() {
        OptionalDouble n = OptionalDouble.empty();
        return new LockMetrics(n, n, n, n, n, n, n, n, n, n, Waits.none(), Waits.none());
    }
}
