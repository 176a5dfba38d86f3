package dev.wordstats.numa.lock.combining;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.lock.CombiningSettings;
import dev.wordstats.numa.lock.ConcurrencySupport;
import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockGuard;
import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.ProbedLockContractTest;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.lock.probe.CountingProbe;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.lock.queue.NumaMcsLockTest;
import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** {@link CombiningLock}: the combining contract, its factory and settings, and its memory layout. */
class CombiningLockTest extends CombiningContractTest {

    @Override
    protected Guard newGuard(CombiningSettings settings) {
        return new CombiningLock(settings, LockProbe.NONE);
    }

    @Override
    protected Guard newContendedGuard() {
        return TestLocks.guard(LockType.COMBINING, NodeLocator.singleNode());
    }

    /** The same contract with a timed {@link CountingProbe}: reporting changes nothing the contract sees. */
    @Nested
    class Probed extends CombiningContractTest {
        @Override
        protected Guard newGuard(CombiningSettings settings) {
            return new CombiningLock(
                    settings, new CountingProbe(NodeLocator.singleNode(), new ProbedLockContractTest.CountingTimer()));
        }

        @Override
        protected Guard newContendedGuard() {
            return TestLocks.guard(
                    LockType.COMBINING,
                    NodeLocator.singleNode(),
                    new CountingProbe(NodeLocator.singleNode(), new ProbedLockContractTest.CountingTimer()));
        }
    }

    @Test
    void theTypeMakesACombiningLockWithItsSettingsAndIsNotALock() {
        LockSettings settings = LockSettings.DEFAULTS.with(new CombiningSettings(7, Duration.ofMillis(3)));
        Guard guard = LockType.COMBINING.create(TestLocks.context(NodeLocator.singleNode()), settings, LockProbe.NONE);
        assertThat(guard).isInstanceOf(CombiningLock.class);
        CombiningLock lock = (CombiningLock) guard;
        assertThat(lock.combineLimit()).isEqualTo(7);
        assertThat(lock.combineTime()).isEqualTo(Duration.ofMillis(3));
        assertThat(LockType.COMBINING.isLock()).isFalse();
        assertThat(guard).isNotInstanceOf(LockGuard.class);
    }

    @Test
    void defaultsBoundTheBatchAndSettingsRejectBadBounds() {
        CombiningLock lock = new CombiningLock();
        assertThat(lock.combineLimit()).isEqualTo(CombiningSettings.DEFAULT_LIMIT);
        assertThat(lock.combineTime()).isEqualTo(CombiningSettings.DEFAULT_TIME);
        assertThatThrownBy(() -> new CombiningSettings(0, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("combineLimit");
        assertThatThrownBy(() -> new CombiningSettings(1, Duration.ofNanos(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("combineTime");
        assertThatThrownBy(() -> new CombiningSettings(1, null)).isInstanceOf(NullPointerException.class);
        assertThat(new CombiningLock(new CombiningSettings(1, Duration.ofDays(365 * 1000L)), LockProbe.NONE)
                        .combineTime())
                .as("saturated, not overflowed")
                .isEqualTo(Duration.ofNanos(Long.MAX_VALUE));
    }

    @Test
    void toStringAndIsLockedFollowTheHolder() throws Exception {
        CombiningLock lock = new CombiningLock();
        assertThat(lock.isLocked()).isFalse();
        assertThat(lock.toString()).contains("CombiningLock").contains("Unlocked");
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = Thread.ofVirtual()
                .name("the-holder")
                .start(() -> lock.run(() -> {
                    inside.countDown();
                    awaitUninterruptibly(release);
                }));
        assertThat(inside.await(ConcurrencySupport.PROMPT.toMillis(), TimeUnit.MILLISECONDS))
                .isTrue();
        assertThat(lock.isLocked()).isTrue();
        assertThat(lock.toString()).contains("Locked by thread the-holder");
        release.countDown();
        holder.join(ConcurrencySupport.PROMPT);
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    void tailIsPaddedFromEveryOtherField() {
        NumaMcsLockTest.assertHotFieldsPadded(CombiningLock.class, "tail");
    }
}
