package dev.wordstats.numa.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.ReadWriteGuards;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.lock.probe.JfrLockProbe;
import dev.wordstats.numa.lock.probe.LockEvents;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@value LockEvents#WAIT} event is the wait, for every lock type, recorded from outside the library's
 * package as an application records it, with virtual and with platform threads. For each type a holder
 * takes the lock (to write), waits until a waiter is parked (or blocked) in it, then holds it {@link #HOLD}
 * more; for a reader-writer type a second run has a reader wait, heard by the guard's read probe. The
 * waiter's event must then
 * <ul>
 *   <li>last at least that hold, minus the clocks' {@link #RESOLUTION}, and start before the holder's
 *       release (so its start is the start of the wait, not the acquisition);
 *   <li>have a top frame outside {@code dev.wordstats.numa.lock}: this test's call of the lock;
 *   <li>not be written inside the waiter's critical section: the waiter stays in its section until the
 *       recording stream has flushed twice (each flush delivers every event committed before it) and
 *       counts the events of its lock seen by then, which must be none; its event comes after it leaves.
 * </ul>
 * All types run at once on one stream (each its own lock and probe, told apart by lock id), so the flushes
 * are waited for once. The combining types' waiter has its section run by the combiner, so its event ends
 * at its own return and also spans that section: for them the duration is the caller's blocked call, at
 * least the wait ({@code waitTime}). Bounded: every wait has a deadline.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LockWaitEventTest {

    private static final Duration HOLD = Duration.ofMillis(100);
    /** JFR's ticks and System.nanoTime are read a few instructions apart, and either may be coarse. */
    private static final Duration RESOLUTION = Duration.ofMillis(1);
    /**
     * How much later than the lock's own clock reads the event may begin or end: a thread descheduled between
     * them (a shared machine); far below the waiter's section, which lasts two flushes of the stream.
     */
    private static final Duration SCHEDULING = Duration.ofMillis(50);

    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final Set<LockType> SERVED = EnumSet.of(LockType.COMBINING, LockType.NUMA_COMBINING);

    /** One type's run: its lock, and what its holder and waiter saw. */
    private static final class Case {
        final LockType type;
        final boolean readSide; // the waiter reads (a reader-writer type's read probe hears it), the holder writes
        final JfrLockProbe probe;
        final Guard guard;
        volatile Thread waiter;
        volatile long heldFrom; // nanoTime: the waiter was parked in the lock by then
        volatile long releasedAt; // nanoTime: the holder's last act in its section
        volatile Instant releasedInstant;
        volatile int seenInSection = -1; // the lock's wait events the stream delivered while the waiter held it
        volatile boolean waiterWasParked;

        Case(LockType type, boolean readSide) {
            this.type = type;
            this.readSide = readSide;
            NodeLocator nodes = NodeLocator.singleNode();
            this.probe = new JfrLockProbe(type, nodes);
            this.guard = readSide
                    ? ReadWriteGuards.create(
                            type, TestLocks.context(nodes), LockSettings.DEFAULTS, probe, LockProbe.NONE)
                    : TestLocks.guard(type, nodes, probe);
        }

        String name() {
            return type + (readSide ? " read" : "");
        }
    }

    @Tag(TestLocks.EVERY_TYPE)
    @ParameterizedTest(name = "virtual threads: {0}")
    @ValueSource(booleans = {true, false})
    void eachTypesWaitEventIsTheWaitTopFramedAtTheCallerAndWrittenAfterTheSection(boolean virtual) throws Exception {
        List<Case> cases = new ArrayList<>();
        for (LockType type : TestLocks.types().toList()) {
            cases.add(new Case(type, false));
            if (type.isReadWrite()) {
                cases.add(new Case(type, true));
            }
        }
        Map<Long, List<RecordedEvent>> byLock = new ConcurrentHashMap<>();
        AtomicInteger flushes = new AtomicInteger();
        List<Thread> threads = new CopyOnWriteArrayList<>();

        try (RecordingStream stream = new RecordingStream()) {
            stream.setReuse(false); // the events are kept past the callback
            stream.enable(LockEvents.WAIT).withThreshold(Duration.ZERO).withStackTrace();
            stream.onEvent(
                    LockEvents.WAIT,
                    event -> byLock.computeIfAbsent(event.getLong("lockId"), id -> new CopyOnWriteArrayList<>())
                            .add(event));
            stream.onFlush(flushes::incrementAndGet);
            stream.startAsync();
            for (Case c : cases) {
                run(c, virtual, byLock, flushes, threads);
            }
            for (Thread thread : threads) {
                assertThat(thread.join(DEADLINE)).as(thread.getName()).isTrue();
            }
            stream.stop(); // writes and delivers every event committed before it
        }

        SoftAssertions softly = new SoftAssertions();
        for (Case c : cases) {
            String type = c.name();
            softly.assertThat(c.waiterWasParked)
                    .as("%s: the waiter was parked in the lock", type)
                    .isTrue();
            softly.assertThat(c.seenInSection)
                    .as("%s: events written inside the section", type)
                    .isZero();
            List<RecordedEvent> events = byLock.getOrDefault(c.probe.lockId(), List.of());
            softly.assertThat(events).as("%s: the waiter's wait event", type).hasSize(1);
            if (events.size() != 1) {
                continue;
            }
            RecordedEvent event = events.getFirst();
            Duration held = Duration.ofNanos(c.releasedAt - c.heldFrom);
            softly.assertThat(event.getDuration())
                    .as("%s: the duration, against the hold the waiter waited through (%s)", type, held)
                    .isGreaterThanOrEqualTo(held.minus(RESOLUTION));
            softly.assertThat(event.getStartTime())
                    .as("%s: the start, before the holder's release", type)
                    .isBefore(c.releasedInstant);
            Duration waitTime = event.getDuration("waitTime");
            if (SERVED.contains(c.type)) {
                softly.assertThat(event.getDuration())
                        .as("%s: the served caller's blocked call, its wait within", type)
                        .isGreaterThanOrEqualTo(waitTime.minus(RESOLUTION));
            } else {
                softly.assertThat(event.getDuration())
                        .as("%s: the duration, the lock's own figure of the wait", type)
                        .isBetween(waitTime.minus(RESOLUTION), waitTime.plus(SCHEDULING));
            }
            List<RecordedFrame> frames = event.getStackTrace().getFrames();
            softly.assertThat(frames).as("%s: stack", type).isNotEmpty();
            if (!frames.isEmpty()) {
                RecordedFrame top = frames.getFirst();
                softly.assertThat(top.getMethod().getType().getName())
                        .as(
                                "%s: top frame %s.%s",
                                type,
                                top.getMethod().getType().getName(),
                                top.getMethod().getName())
                        .doesNotStartWith("dev.wordstats.numa.lock.")
                        .isEqualTo(LockWaitEventTest.class.getName());
            }
        }
        softly.assertAll();
    }

    /**
     * A waiter whose timed {@code tryLock} gives up, then waits again: its one event is the second wait, begun
     * after the first gave up (the begun event of a wait that gave up lends its start to no later one).
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = LockType.class,
            names = {"NUMA_MCS", "NUMA_HANDOFF", "FAIR_REENTRANT", "UNFAIR_REENTRANT"})
    void aWaitThatGaveUpLendsItsStartToNoLaterWait(LockType type) throws Exception {
        NodeLocator nodes = NodeLocator.singleNode();
        JfrLockProbe probe = new JfrLockProbe(type, nodes);
        Lock lock = TestLocks.lock(type, nodes, LockSettings.DEFAULTS, probe);
        List<RecordedEvent> events = new CopyOnWriteArrayList<>();
        CountDownLatch gaveUp = new CountDownLatch(1);
        Instant[] gaveUpAt = new Instant[1];
        boolean[] got = new boolean[1];
        long heldFrom;
        long releasedAt;
        try (RecordingStream stream = new RecordingStream()) {
            stream.setReuse(false);
            stream.enable(LockEvents.WAIT).withThreshold(Duration.ZERO);
            stream.onEvent(LockEvents.WAIT, events::add);
            stream.startAsync();
            lock.lock();
            Thread waiter = Thread.ofVirtual().name("gives up, then waits").start(() -> {
                try {
                    got[0] = lock.tryLock(30, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                gaveUpAt[0] = Instant.now();
                gaveUp.countDown();
                lock.lock();
                lock.unlock();
            });
            try {
                assertThat(gaveUp.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS))
                        .isTrue();
                long deadline = System.nanoTime() + DEADLINE.toNanos();
                while (!parked(waiter) && System.nanoTime() < deadline) {
                    LockSupport.parkNanos(100_000);
                }
                heldFrom = System.nanoTime();
                park(Duration.ofMillis(20).toNanos());
                releasedAt = System.nanoTime();
            } finally {
                lock.unlock();
            }
            assertThat(waiter.join(DEADLINE)).isTrue();
            stream.stop();
        }

        assertThat(got[0]).as("the timed tryLock gave up").isFalse();
        List<RecordedEvent> mine = events.stream()
                .filter(event -> event.getLong("lockId") == probe.lockId())
                .toList();
        assertThat(mine).hasSize(1);
        assertThat(mine.getFirst().getStartTime()).isAfter(gaveUpAt[0]);
        assertThat(mine.getFirst().getDuration())
                .isGreaterThanOrEqualTo(Duration.ofNanos(releasedAt - heldFrom).minus(RESOLUTION));
    }

    /**
     * Starts {@code c}'s holder, which takes the lock, waits for the waiter to park in it, holds {@link #HOLD}
     * more and releases; then its waiter, which stays in its section until the stream flushed twice.
     */
    private static void run(
            Case c, boolean virtual, Map<Long, List<RecordedEvent>> byLock, AtomicInteger flushes, List<Thread> threads)
            throws InterruptedException {
        Thread.Builder builder = virtual ? Thread.ofVirtual() : Thread.ofPlatform();
        CountDownLatch holding = new CountDownLatch(1);
        Thread holder = builder.name(c.name() + " holder")
                .unstarted(() -> c.guard.run(() -> {
                    holding.countDown();
                    long deadline = System.nanoTime() + DEADLINE.toNanos();
                    boolean seen; // parked once is enough: a leader parks timed and wakes to reserve
                    while (!(seen = parked(c.waiter)) && System.nanoTime() < deadline) {
                        LockSupport.parkNanos(100_000);
                    }
                    c.waiterWasParked = seen;
                    c.heldFrom = System.nanoTime();
                    park(HOLD.toNanos());
                    c.releasedInstant = Instant.now();
                    c.releasedAt = System.nanoTime();
                }));
        Runnable section = () -> {
            int atEntry = flushes.get();
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            while (flushes.get() < atEntry + 2 && System.nanoTime() < deadline) {
                LockSupport.parkNanos(1_000_000);
            }
            c.seenInSection = byLock.getOrDefault(c.probe.lockId(), List.of()).size();
        };
        Thread waiter = builder.name(c.name() + " waiter").unstarted(() -> {
            if (c.readSide) {
                c.guard.read(() -> {
                    section.run();
                    return null;
                });
            } else {
                c.guard.run(section);
            }
        });
        c.waiter = waiter;
        threads.add(holder);
        threads.add(waiter);
        holder.start();
        assertThat(holding.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS))
                .as(c.name() + " holder")
                .isTrue();
        waiter.start();
    }

    /** Whether {@code thread} is parked or blocked (a waiter that spins is still RUNNABLE). */
    private static boolean parked(Thread thread) {
        Thread.State state = thread.getState();
        return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING || state == Thread.State.BLOCKED;
    }

    /** Parks at least {@code nanos}, however often the park returns early. */
    private static void park(long nanos) {
        long end = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
