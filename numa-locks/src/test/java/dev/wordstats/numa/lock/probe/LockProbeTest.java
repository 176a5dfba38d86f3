package dev.wordstats.numa.lock.probe;

import static dev.wordstats.numa.lock.ConcurrencySupport.PROMPT;
import static dev.wordstats.numa.lock.ConcurrencySupport.awaitParkedOrDone;
import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.GuardContractTest;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link LockProbe} contract as every lock keeps it: a probe that does not hear the fast path is told
 * only of acquisitions that waited, with their wait; {@link LockProbe#both} tells each sink what it asked
 * for (a combiner's report of its batch: CombiningProbeTest, in numa-locks-lab).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LockProbeTest {

    private static final NodeLocator ONE_NODE = NodeLocator.singleNode();

    static Stream<Arguments> typesAndKinds() {
        return TestLocks.types().flatMap(type -> Stream.of(ThreadKind.values()).map(kind -> Arguments.of(type, kind)));
    }

    @Tag(TestLocks.EVERY_TYPE)
    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("typesAndKinds")
    void aProbeDeafToTheFastPathHearsOnlyTheWaitWithItsLength(LockType type, ThreadKind kind) throws Exception {
        SlowOnly probe = new SlowOnly();
        Guard guard = TestLocks.guard(type, ONE_NODE, probe);
        for (int i = 0; i < 100; i++) {
            guard.run(() -> {});
        }
        assertThat(probe.calls).as("uncontended: nothing reported").isEmpty();
        long holdMillis = 20;
        try (Workers workers = new Workers(guard)) {
            GuardContractTest.GuardHolder holder = GuardContractTest.hold(guard, kind, workers);
            Thread waiter = workers.start(kind, "waiter", () -> guard.run(() -> {}));
            assertThat(awaitParkedOrDone(waiter, PROMPT)).isTrue();
            Thread.sleep(holdMillis);
            holder.release();
            workers.joinAll(PROMPT);
        }
        assertThat(probe.calls.stream().filter(call -> call.startsWith("acquired")))
                .as("one waiting acquisition")
                .containsExactly("acquired(true, " + probe.waits.peek() + ")");
        assertThat(probe.waits.peek()).as("its wait").isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(holdMillis));
    }

    @Test
    void bothTellsEachSinkOnlyWhatItAskedFor() {
        SlowOnly slowOnly = new SlowOnly();
        RecordingTimer timer = new RecordingTimer();
        CountingProbe counting = new CountingProbe(ONE_NODE, timer);
        LockProbe both = LockProbe.both(slowOnly, counting);
        assertThat(both.hearsFastPath()).isTrue();
        assertThat(both.timed()).isTrue();
        both.acquired(false, 5);
        both.released(false, 5, 7);
        both.acquired(true, 9);
        both.released(true, 9, 11);
        both.reserved(0);
        both.combined(3, 100);
        both.modeSwitched(true);
        assertThat(slowOnly.calls).containsExactly("acquired(true, 9)", "reserved", "combined(3)", "switched(true)");
        assertThat(counting.stats()).isEqualTo(new LockStats(1, 1, 1, 0));
        assertThat(timer.waits).containsExactly(5L, 9L);
        assertThat(timer.holds).containsExactly(7L, 11L);
        assertThat(counting.reservations()).isEqualTo(1);
        assertThat(counting.batches()).isEqualTo(1);
        assertThat(counting.batchedSections()).isEqualTo(3);
        assertThat(counting.modeSwitches()).isEqualTo(1);
        assertThat(LockProbe.both(counting, LockProbe.NONE)).isSameAs(counting);
        assertThat(LockProbe.both(LockProbe.NONE, counting)).isSameAs(counting);
        assertThat(LockProbe.orNull(LockProbe.NONE)).isNull();
        assertThat(LockProbe.fastPathOf(slowOnly)).isNull();
        assertThat(LockProbe.fastPathOf(counting)).isSameAs(counting);
    }

    /** Hears only waiting acquisitions, untimed, and records every call. */
    static final class SlowOnly implements LockProbe {
        final Queue<String> calls = new ConcurrentLinkedQueue<>();
        final Queue<Long> waits = new ConcurrentLinkedQueue<>();

        @Override
        public boolean hearsFastPath() {
            return false;
        }

        @Override
        public void acquired(boolean waited, long waitNanos) {
            calls.add("acquired(" + waited + ", " + waitNanos + ")");
            waits.add(waitNanos);
        }

        @Override
        public void released(boolean waited, long waitNanos, long holdNanos) {
            calls.add("released");
        }

        @Override
        public void reserved(int node) {
            calls.add("reserved");
        }

        @Override
        public void combined(int size, long nanos) {
            calls.add("combined(" + size + ")");
        }

        @Override
        public void modeSwitched(boolean queued) {
            calls.add("switched(" + queued + ")");
        }
    }

    /** Keeps every record in order, thread-safely. */
    static final class RecordingTimer implements LockTimer {
        final Queue<Long> waits = new ConcurrentLinkedQueue<>();
        final Queue<Long> holds = new ConcurrentLinkedQueue<>();

        @Override
        public void recordWait(long nanos) {
            waits.add(nanos);
        }

        @Override
        public void recordHold(long nanos) {
            holds.add(nanos);
        }
    }
}
