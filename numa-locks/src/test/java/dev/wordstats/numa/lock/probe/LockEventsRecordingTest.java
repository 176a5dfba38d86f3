package dev.wordstats.numa.lock.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.ConcurrencySupport;
import dev.wordstats.numa.lock.ConcurrencySupport.AssignedNodes;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.QueueLockSettings;
import dev.wordstats.numa.lock.TestLocks;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every lock type, built with a {@link JfrLockProbe} and driven into contention by virtual and by
 * platform threads, writes its lock waits as JFR events, read back with a {@link RecordingStream}: each
 * at least JFR's {@code threshold} long, one for each wait the lock reported well past it (a second probe
 * on the same lock logs every reported wait), none that the lock did not report, each with the lock's
 * type and id, a node of the locator and
 * a handoff locality, and a stack whose top frame is the test's call of the lock (the library's frames
 * trimmed); the combining types also write their batches, the queue locks their reservations,
 * the adaptive lock its mode switches (as many as a counting probe on the same lock counts).
 * With the events disabled, nothing is written. Bounded: a holder keeps the lock for {@link #HOLD} while
 * waiters arrive, a burst of tiny critical sections follows, then rounds of waits of about 100 us; every
 * join has a deadline.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LockEventsRecordingTest {

    private static final Duration THRESHOLD = Duration.ofMillis(1);
    private static final Duration HOLD = Duration.ofMillis(30);
    /** What the event's duration and the lock's figure of one wait may differ by (clock reads, descheduling). */
    private static final Duration MARGIN = Duration.ofMillis(5);

    private static final int WAITERS = 4;
    private static final int BURST_CALLS = 2_000;
    private static final int SHORT_ROUNDS = 10;

    static Stream<Arguments> typesAndThreads() {
        return TestLocks.types().flatMap(type -> Stream.of(ThreadKind.values()).map(kind -> Arguments.of(type, kind)));
    }

    @Tag(TestLocks.EVERY_TYPE)
    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("typesAndThreads")
    void waitsPastTheThresholdAreRecordedWithTheirLockNodeAndHandoffAndNoneBelowIt(LockType type, ThreadKind kind)
            throws Exception {
        AssignedNodes nodes = new AssignedNodes(2);
        JfrLockProbe jfr = new JfrLockProbe(type, nodes);
        WaitLog log = new WaitLog();
        CountingProbe counting = new CountingProbe(nodes);
        Guard guard = TestLocks.guard(type, nodes, LockProbe.both(LockProbe.both(log, counting), jfr));

        List<RecordedEvent> events = record(
                stream -> {
                    stream.enable(LockEvents.WAIT).withThreshold(THRESHOLD);
                    stream.enable(LockEvents.COMBINING_BATCH).with("throttle", "off");
                    stream.enable(LockEvents.RESERVATION);
                    stream.enable(LockEvents.MODE_SWITCH);
                },
                () -> {
                    contend(guard, nodes, kind);
                    shortWaits(guard, nodes, kind);
                });

        List<RecordedEvent> waits = named(events, LockEvents.WAIT);
        assertThat(waits).allSatisfy(event -> {
            assertThat(event.getString("lockType")).isEqualTo(type.name());
            assertThat(event.getLong("lockId")).isEqualTo(jfr.lockId());
            assertThat(event.getInt("node")).isBetween(0, 1);
            assertThat(event.getString("handoff")).isIn("same_node", "cross_node", "unknown");
            assertCallerOnTop(event);
        });
        // JFR's threshold filters the event's duration, which runs from the lock's question at the start of the
        // wait to the acquisition (for a caller a combiner served, to its return): so every event is at least the
        // threshold, every reported wait clearly past it has its event, and no event is a wait not reported.
        // Whether some stayed below it is the scheduler's choice (a loaded machine can stall the short rounds'
        // waiters past it).
        List<Long> reported = log.waits();
        assertThat(waits).allSatisfy(event -> assertThat(event.getDuration()).isGreaterThanOrEqualTo(THRESHOLD));
        List<Long> recorded = waits.stream()
                .map(event -> event.getDuration("waitTime").toNanos())
                .toList();
        assertThat(reported).containsAll(recorded);
        List<Long> clearlyPast = reported.stream()
                .filter(nanos -> nanos >= THRESHOLD.plus(MARGIN).toNanos())
                .toList();
        assertThat(recorded).containsAll(clearlyPast);
        assertThat(clearlyPast).isNotEmpty();

        if (type == LockType.COMBINING || type == LockType.NUMA_COMBINING) {
            List<RecordedEvent> batches = named(events, LockEvents.COMBINING_BATCH);
            assertThat(batches).isNotEmpty().allSatisfy(event -> {
                assertThat(event.getLong("lockId")).isEqualTo(jfr.lockId());
                assertThat(event.getInt("size")).isPositive();
                assertThat(event.getDuration("length")).isGreaterThanOrEqualTo(Duration.ZERO);
            });
            assertThat(batches.stream().mapToLong(event -> event.getInt("size")).sum())
                    .isEqualTo(counting.batchedSections());
        }
        List<RecordedEvent> reservations = named(events, LockEvents.RESERVATION);
        assertThat(reservations).hasSize((int) counting.reservations()).allSatisfy(event -> {
            assertThat(event.getLong("lockId")).isEqualTo(jfr.lockId());
            assertThat(event.getInt("node")).isBetween(0, 1);
            assertCallerOnTop(event);
        });
        List<RecordedEvent> switches = named(events, LockEvents.MODE_SWITCH);
        assertThat(switches).hasSize((int) counting.modeSwitches());
        assertThat(switches).allSatisfy(event -> {
            assertThat(event.getString("mode")).isIn("queued", "lean");
            assertCallerOnTop(event);
        });
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = LockType.class,
            names = {"NUMA_MCS", "NUMA_HANDOFF"})
    void theQueueLocksRecordTheirReservations(LockType type) throws Exception {
        AssignedNodes nodes = new AssignedNodes(2);
        JfrLockProbe jfr = new JfrLockProbe(type, nodes);
        CountingProbe counting = new CountingProbe(nodes);
        // a zero threshold: every leader that parks reserves
        LockSettings eager = LockSettings.DEFAULTS.with(new QueueLockSettings(Duration.ZERO));
        Guard guard = type.create(TestLocks.context(nodes), eager, LockProbe.both(counting, jfr));

        List<RecordedEvent> events = record(
                stream -> stream.enable(LockEvents.RESERVATION), () -> contend(guard, nodes, ThreadKind.VIRTUAL));

        assertThat(counting.reservations()).isPositive();
        assertThat(named(events, LockEvents.RESERVATION))
                .hasSize((int) counting.reservations())
                .allSatisfy(event -> {
                    assertThat(event.getString("lockType")).isEqualTo(type.name());
                    assertThat(event.getLong("lockId")).isEqualTo(jfr.lockId());
                    assertThat(event.getInt("node")).isBetween(0, 1);
                    assertCallerOnTop(event);
                });
    }

    @Tag(TestLocks.EVERY_TYPE)
    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("typesAndThreads")
    void nothingIsRecordedWhenTheEventsAreDisabled(LockType type, ThreadKind kind) throws Exception {
        AssignedNodes nodes = new AssignedNodes(2);
        CountingProbe counting = new CountingProbe(nodes);
        Guard guard = TestLocks.guard(type, nodes, LockProbe.both(counting, new JfrLockProbe(type, nodes)));

        List<RecordedEvent> events = record(
                stream -> {
                    stream.disable(LockEvents.WAIT);
                    stream.disable(LockEvents.COMBINING_BATCH);
                    stream.disable(LockEvents.RESERVATION);
                    stream.disable(LockEvents.MODE_SWITCH);
                },
                () -> contend(guard, nodes, kind));

        assertThat(counting.stats().slowAcquisitions()).isPositive();
        assertThat(events).isEmpty();
    }

    /** The types whose default probe is JFR's ({@link LockType#create(LockContext)}). */
    static Stream<LockType> typesReportedByDefault() {
        return TestLocks.types().filter(LockType::reportsWaitsByDefault);
    }

    @Tag(TestLocks.EVERY_TYPE)
    @ParameterizedTest(name = "{0}")
    @MethodSource("typesReportedByDefault")
    void aLockBuiltWithoutAProbeRecordsItsWaitsByDefault(LockType type) throws Exception {
        AssignedNodes nodes = new AssignedNodes(2);
        Guard guard = type.create(TestLocks.context(nodes));

        List<RecordedEvent> events = record(
                stream -> stream.enable(LockEvents.WAIT).withThreshold(THRESHOLD),
                () -> contend(guard, nodes, ThreadKind.VIRTUAL));

        assertThat(named(events, LockEvents.WAIT))
                .hasSizeGreaterThanOrEqualTo(WAITERS)
                .allSatisfy(event -> assertThat(event.getString("lockType")).isEqualTo(type.name()));
    }

    /**
     * A holder on node 0 (every thread's node until it assigns itself one) takes the guard and sleeps
     * {@link #HOLD} in it while {@link #WAITERS} threads, on both nodes, arrive and wait; then those threads
     * run a burst of tiny critical sections each.
     */
    private static void contend(Guard guard, AssignedNodes nodes, ThreadKind kind) {
        try (Workers workers = new Workers(guard)) {
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch arrived = new CountDownLatch(WAITERS);
            long[] counter = new long[1];
            workers.start(
                    kind,
                    "holder",
                    () -> guard.run(() -> {
                        holding.countDown();
                        try {
                            arrived.await(ConcurrencySupport.PROMPT.toMillis(), TimeUnit.MILLISECONDS);
                            Thread.sleep(HOLD);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        counter[0]++;
                    }));
            assertThat(holding.await(ConcurrencySupport.PROMPT.toMillis(), TimeUnit.MILLISECONDS))
                    .isTrue();
            for (int w = 0; w < WAITERS; w++) {
                int node = w % 2;
                workers.start(kind, "waiter-" + w, () -> {
                    nodes.assign(node);
                    arrived.countDown();
                    guard.run(() -> counter[0]++);
                    for (int i = 0; i < BURST_CALLS; i++) {
                        guard.run(() -> counter[0]++);
                    }
                });
            }
            workers.joinAll(ConcurrencySupport.PROMPT.multipliedBy(2));
            assertThat(guard.call(() -> counter[0])).isEqualTo(1L + WAITERS * (1L + BURST_CALLS));
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * {@link #SHORT_ROUNDS} times: a holder (node 0) spins in the guard until a waiter of its node has
     * arrived, then about 100 us more, so the waiter waits well below {@link #THRESHOLD} (unless the machine
     * stalls it).
     */
    private static void shortWaits(Guard guard, AssignedNodes nodes, ThreadKind kind) {
        try (Workers workers = new Workers(guard)) {
            for (int round = 0; round < SHORT_ROUNDS; round++) {
                CountDownLatch holding = new CountDownLatch(1);
                CountDownLatch arrived = new CountDownLatch(1);
                workers.start(
                        kind,
                        "short-holder-" + round,
                        () -> guard.run(() -> {
                            holding.countDown();
                            long deadline = System.nanoTime() + ConcurrencySupport.PROMPT.toNanos();
                            while (arrived.getCount() > 0 && System.nanoTime() < deadline) {
                                Thread.onSpinWait();
                            }
                            long until = System.nanoTime() + 100_000;
                            while (System.nanoTime() < until) {
                                Thread.onSpinWait();
                            }
                        }));
                assertThat(holding.await(ConcurrencySupport.PROMPT.toMillis(), TimeUnit.MILLISECONDS))
                        .isTrue();
                workers.start(kind, "short-waiter-" + round, () -> {
                    nodes.assign(0);
                    arrived.countDown();
                    guard.run(() -> {});
                });
                workers.joinAll(ConcurrencySupport.PROMPT);
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** Logs every wait a lock reports, as the JFR probe hears it (acquisitions that waited only). */
    private static final class WaitLog implements LockProbe {
        private final List<Long> waits = new CopyOnWriteArrayList<>();

        @Override
        public boolean hearsFastPath() {
            return false;
        }

        @Override
        public void acquired(boolean waited, long waitNanos) {
            if (waited) {
                waits.add(waitNanos);
            }
        }

        List<Long> waits() {
            return List.copyOf(waits);
        }
    }

    private static List<RecordedEvent> record(Consumer<RecordingStream> setup, Runnable body) {
        List<RecordedEvent> events = new CopyOnWriteArrayList<>();
        try (RecordingStream stream = new RecordingStream()) {
            stream.setReuse(false); // the events are kept past the callback
            setup.accept(stream);
            stream.onEvent(event -> {
                if (event.getEventType().getCategoryNames().contains(LockEvents.CATEGORY)) {
                    events.add(event);
                }
            });
            stream.startAsync();
            body.run();
            stream.stop(); // writes and delivers every event committed before it
        }
        return events;
    }

    /**
     * The top frame of the event's stack is the code that called the lock (this test's, or for a combiner
     * running a waiter's section, the combiner's caller, also this test's): the library's frames are trimmed.
     */
    private static void assertCallerOnTop(RecordedEvent event) {
        RecordedStackTrace stack = event.getStackTrace();
        assertThat(stack).isNotNull();
        assertThat(stack.getFrames()).isNotEmpty();
        RecordedFrame top = stack.getFrames().getFirst();
        assertThat(top.getMethod().getType().getName())
                .as(
                        "top frame %s.%s",
                        top.getMethod().getType().getName(), top.getMethod().getName())
                .isEqualTo(LockEventsRecordingTest.class.getName());
    }

    private static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        return events.stream()
                .filter(event -> event.getEventType().getName().equals(name))
                .toList();
    }
}
