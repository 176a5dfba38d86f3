package dev.wordstats.service.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.LockType;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Lock timing: tagged by lock type, histogram published, sampled as configured. */
class MicrometerLockTimerTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void recordsEveryCallWhenSamplingEveryOneWithTheLockTag() {
        MicrometerLockTimer timer = new MicrometerLockTimer(LockType.FAIR_REENTRANT, "write", 1);
        timer.bindTo(registry);
        for (int i = 0; i < 100; i++) {
            timer.recordWait(1_000);
            timer.recordHold(2_000);
        }
        Timer wait = registry.get("wordstats.lock.wait")
                .tag("lock", "FAIR_REENTRANT")
                .tag("path", "unknown")
                .timer();
        Timer held = registry.get("wordstats.lock.held")
                .tag("lock", "FAIR_REENTRANT")
                .timer();
        assertThat(wait.count()).isEqualTo(100);
        assertThat(held.totalTime(TimeUnit.NANOSECONDS)).isEqualTo(200_000);
    }

    @Test
    void recordsAboutOneCallInNWhenSampling() {
        MicrometerLockTimer timer = new MicrometerLockTimer(LockType.NUMA_MCS, "write", 8);
        timer.bindTo(registry);
        for (int i = 0; i < 80_000; i++) {
            timer.recordWait(1_000);
        }
        // Binomial(80000, 1/8): mean 10000, sd ~94; the bounds are > 10 sd away.
        assertThat(registry.get("wordstats.lock.wait")
                        .tag("path", "unknown")
                        .timer()
                        .count())
                .isBetween(9_000L, 11_000L);
    }

    @Test
    void registersNoUnknownPathTimerUntilAWaitWithoutAPathArrives() {
        MicrometerLockTimer timer = new MicrometerLockTimer(LockType.NUMA_MCS, "write", 1);
        timer.bindTo(registry);
        timer.recordWait(50, false);
        timer.recordWait(2_000, true);
        assertThat(registry.find("wordstats.lock.wait").tag("path", "unknown").timer())
                .as("no unknown-path timer while every wait says its path")
                .isNull();
        assertThat(registry.find("wordstats.lock.wait").timers()).hasSize(2);

        timer.recordWait(1_000);
        assertThat(registry.get("wordstats.lock.wait")
                        .tag("path", "unknown")
                        .timer()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void dropsTimesRecordedBeforeTheRegistryBindsIt() {
        MicrometerLockTimer timer = new MicrometerLockTimer(LockType.NUMA_MCS, "write", 1);
        timer.recordWait(1_000);
        timer.recordWait(1_000, true);
        timer.bindTo(registry);
        assertThat(registry.get("wordstats.lock.wait").timers()).allMatch(t -> t.count() == 0);
        assertThat(registry.find("wordstats.lock.wait").tag("path", "unknown").timer())
                .isNull();
    }

    @Test
    void waitsAreTaggedByThePathTheAcquisitionTook() {
        MicrometerLockTimer timer = new MicrometerLockTimer(LockType.NUMA_MCS, "write", 1);
        timer.bindTo(registry);
        for (int i = 0; i < 97; i++) {
            timer.recordWait(50, false);
        }
        for (int i = 0; i < 3; i++) {
            timer.recordWait(2_000_000, true);
        }
        Timer fast = registry.get("wordstats.lock.wait").tag("path", "fast").timer();
        Timer slow = registry.get("wordstats.lock.wait").tag("path", "slow").timer();
        assertThat(fast.count()).isEqualTo(97);
        assertThat(slow.count()).isEqualTo(3);
        // the slow path's own distribution describes waiting: all of it is the 2 ms waits
        assertThat(slow.max(TimeUnit.MILLISECONDS)).isEqualTo(2.0);
        assertThat(slow.mean(TimeUnit.MILLISECONDS)).isEqualTo(2.0);
        assertThat(fast.max(TimeUnit.NANOSECONDS)).isEqualTo(50.0);
    }
}
