package dev.wordstats.service.metrics;

import dev.wordstats.numa.lock.LockTimer;
import dev.wordstats.numa.lock.LockType;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.util.concurrent.TimeUnit;

/**
 * Records every stripe lock's wait and hold times into {@code wordstats.lock.wait} and
 * {@code wordstats.lock.held} (percentile histograms on, tag {@code lock}). The locks call it on the
 * releasing thread after the release, outside the critical section. No sampling: every acquisition
 * is recorded (turn {@code wordstats.lock.timing} off to take the clock reads away altogether).
 *
 * <p>Times recorded before the registry binds the timers (during startup) are dropped.
 */
final class MicrometerLockTimer implements LockTimer, MeterBinder {

    private final LockType lockType;
    private volatile Timer waitTimer; // set once by bindTo, read by every recording thread
    private volatile Timer heldTimer; // set once by bindTo, read by every recording thread

    MicrometerLockTimer(LockType lockType) {
        this.lockType = lockType;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.waitTimer = Timer.builder("wordstats.lock.wait")
                .description("Time from asking for a stripe lock to holding it")
                .tag("lock", lockType.name())
                .publishPercentileHistogram()
                .register(registry);
        this.heldTimer = Timer.builder("wordstats.lock.held")
                .description("Time a stripe lock was held, from acquisition to release")
                .tag("lock", lockType.name())
                .publishPercentileHistogram()
                .register(registry);
    }

    @Override
    public void recordWait(long nanos) {
        Timer timer = waitTimer;
        if (timer != null) {
            timer.record(nanos, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void recordHold(long nanos) {
        Timer timer = heldTimer;
        if (timer != null) {
            timer.record(nanos, TimeUnit.NANOSECONDS);
        }
    }
}
