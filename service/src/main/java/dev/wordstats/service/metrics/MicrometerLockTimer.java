package dev.wordstats.service.metrics;

import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.probe.LockTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Records the stripe locks' wait and hold times into {@code wordstats.lock.wait} and
 * {@code wordstats.lock.held} (percentile histograms on, tags {@code lock} and {@code access}: {@code read}
 * for the read sections of a reader-writer lock type, {@code write} for the others). The stripes' lock probes
 * call it outside the critical section (see {@code dev.wordstats.numa.lock.probe.LockTimer}).
 *
 * <p><b>Waits by path:</b> {@code wordstats.lock.wait} carries a {@code path} tag: {@code slow} for
 * acquisitions that had to wait (these describe waiting: their quantiles are what a contended
 * request pays), {@code fast} for the ones whose first attempt got the lock (their "wait" is the cost
 * of that attempt, tens of nanoseconds). Mixing the two would put the p99 in the fast path whenever
 * fewer than 1% of acquisitions wait, which is the usual case. {@code path="unknown"} holds waits
 * from a caller that does not say the path ({@link LockTimer#recordWait(long)}); the stripes' probes
 * always say it, so that timer is registered only when its first wait arrives, and a scrape of the
 * service never shows it (a percentile histogram is over a hundred series, all empty).
 *
 * <p><b>Sampled:</b> one call in {@code wordstats.lock.timing-sample-every} (default 8), chosen with
 * {@link ThreadLocalRandom}, is recorded. The two timers are shared by every stripe, and recording
 * increments shared histogram buckets, so recording every acquisition would add a counter all
 * threads contend on; a random sample keeps means and quantiles unbiased. The timers' counts are
 * then about 1/N of the acquisitions; {@code wordstats.lock.acquisitions} counts them exactly.
 * Turn {@code wordstats.lock.timing} off to take the clock reads away altogether.
 *
 * <p>Times recorded before the registry binds the timers (during startup) are dropped.
 */
final class MicrometerLockTimer implements LockTimer, MeterBinder {

    /** Lowest and highest histogram buckets of both timers. */
    private static final Duration MIN_EXPECTED = Duration.ofNanos(100);

    private static final Duration MAX_EXPECTED = Duration.ofSeconds(10);

    private final LockType lockType;
    private final String access; // "read" or "write"
    private final int sampleEvery;
    private volatile Timer fastWaitTimer; // set once by bindTo, read by every recording thread
    private volatile Timer slowWaitTimer; // set once by bindTo, read by every recording thread
    private volatile Timer unknownWaitTimer; // set by the first recordWait(long) after bindTo (benign race: the
    // registry returns the same timer to every thread that registers it), read by later ones
    private volatile MeterRegistry registry; // set once by bindTo, read by the first recordWait(long)
    private volatile Timer heldTimer; // set once by bindTo, read by every recording thread

    MicrometerLockTimer(LockType lockType, String access, int sampleEvery) {
        if (sampleEvery < 1) {
            throw new IllegalArgumentException("sampleEvery must be at least 1, was " + sampleEvery);
        }
        this.lockType = lockType;
        this.access = access;
        this.sampleEvery = sampleEvery;
    }

    private boolean sampled() {
        return sampleEvery == 1 || ThreadLocalRandom.current().nextInt(sampleEvery) == 0;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.fastWaitTimer = waitTimer(registry, "fast");
        this.slowWaitTimer = waitTimer(registry, "slow");
        this.registry = registry;
        this.heldTimer = Timer.builder("wordstats.lock.held")
                .description("Time a stripe lock was held, from acquisition to release (the critical section)")
                .tag("lock", lockType.name())
                .tag("access", access)
                .publishPercentileHistogram()
                // Micrometer's default histogram starts at 1 ms; a stripe lock's waits and holds are
                // mostly nanoseconds to microseconds.
                .minimumExpectedValue(MIN_EXPECTED)
                .maximumExpectedValue(MAX_EXPECTED)
                .register(registry);
    }

    private Timer waitTimer(MeterRegistry registry, String path) {
        return Timer.builder("wordstats.lock.wait")
                .description("Time from asking for a stripe lock to holding it, by path: slow (the thread waited),"
                        + " fast (the first attempt got it)")
                .tag("lock", lockType.name())
                .tag("access", access)
                .tag("path", path)
                .publishPercentileHistogram()
                // Micrometer's default histogram starts at 1 ms; a stripe lock's waits and holds are
                // mostly nanoseconds to microseconds.
                .minimumExpectedValue(MIN_EXPECTED)
                .maximumExpectedValue(MAX_EXPECTED)
                .register(registry);
    }

    @Override
    public void recordWait(long nanos, boolean slowPath) {
        record(slowPath ? slowWaitTimer : fastWaitTimer, nanos);
    }

    @Override
    public void recordWait(long nanos) {
        Timer timer = unknownWaitTimer;
        if (timer == null) {
            MeterRegistry bound = registry;
            if (bound == null) {
                return; // before bindTo: dropped, as the other times are
            }
            timer = waitTimer(bound, "unknown");
            unknownWaitTimer = timer;
        }
        record(timer, nanos);
    }

    private void record(Timer timer, long nanos) {
        if (timer != null && sampled()) {
            timer.record(nanos, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void recordHold(long nanos) {
        record(heldTimer, nanos);
    }
}
