package dev.wordstats.numa.lock;

import static dev.wordstats.numa.lock.ConcurrencySupport.PROMPT;
import static dev.wordstats.numa.lock.ConcurrencySupport.awaitParkedOrDone;
import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.ConcurrencySupport.CriticalSection;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadIdNodes;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.openjdk.jol.info.ClassLayout;

/** The mode switches of {@link NumaAdaptiveLock}: when it turns queued or lean, and that nothing is lost. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NumaAdaptiveLockTest {

    private static final NodeLocator ONE_NODE = NodeLocator.singleNode();

    @Test
    void aNewLockIsLeanAndSmall() {
        NumaAdaptiveLock lock = new NumaAdaptiveLock(ONE_NODE);
        assertThat(lock.isQueued()).isFalse();
        assertThat(lock.modeSwitches()).isZero();
        // The lock and its word; the locator and the settings are shared by every lock of a store.
        long bytes = ClassLayout.parseClass(NumaAdaptiveLock.class).instanceSize()
                + ClassLayout.parseClass(NumaAdaptiveLock.Word.class).instanceSize();
        System.out.printf("NumaAdaptiveLock: %d bytes per lean lock (JOL, this JVM)%n", bytes);
        // The word, its statistics and its padding; the queue lock is made only when the lock turns queued.
        assertThat(bytes).isLessThanOrEqualTo(256);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aStarvingWaiterTurnsTheLockQueued(ThreadKind kind) throws Exception {
        NumaAdaptiveLock lock = new NumaAdaptiveLock(ONE_NODE);
        try (Workers workers = new Workers(lock)) {
            ConcurrencySupport.Holder holder = ConcurrencySupport.hold(lock, kind, workers);
            Thread waiter = workers.start(kind, "waiter", () -> {
                lock.lock();
                lock.unlock();
            });
            assertThat(awaitParkedOrDone(waiter, PROMPT)).isTrue();
            Thread.sleep(3 * NumaAdaptiveLock.STARVING_NANOS / 1_000_000L);
            assertThat(lock.isQueued()).as("lean while nobody starved").isFalse();
            holder.release();
            workers.joinAll(PROMPT);
        }
        assertThat(lock.isQueued())
                .as("queued after a waiter waited past the bound")
                .isTrue();
        assertThat(lock.modeSwitches()).isEqualTo(1);
        assertThat(lock.tryLock()).as("usable, queued").isTrue();
        lock.unlock();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void parkedLeanWaitersMoveToTheQueueWhenItTurnsOn(ThreadKind kind) throws Exception {
        NumaAdaptiveLock lock = new NumaAdaptiveLock(ONE_NODE);
        CriticalSection section = new CriticalSection();
        CountDownLatch starverInside = new CountDownLatch(1);
        CountDownLatch letStarverGo = new CountDownLatch(1);
        int parked = 4;
        try (Workers workers = new Workers(lock)) {
            ConcurrencySupport.Holder holder = ConcurrencySupport.hold(lock, kind, workers);
            Thread starver = workers.start(kind, "starver", () -> {
                lock.lock();
                try {
                    section.enter(false);
                    starverInside.countDown();
                    letStarverGo.await();
                } finally {
                    lock.unlock(); // waited past the bound: this release turns the lock queued
                }
            });
            assertThat(awaitParkedOrDone(starver, PROMPT)).isTrue();
            Thread.sleep(3 * NumaAdaptiveLock.STARVING_NANOS / 1_000_000L);
            holder.release();
            assertThat(starverInside.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS))
                    .isTrue();
            Thread[] waiters = new Thread[parked];
            for (int i = 0; i < parked; i++) {
                waiters[i] = workers.start(kind, "lean-waiter-" + i, () -> {
                    lock.lock();
                    try {
                        section.enter(false);
                    } finally {
                        lock.unlock();
                    }
                });
            }
            for (Thread waiter : waiters) {
                assertThat(awaitParkedOrDone(waiter, PROMPT))
                        .as("parked in the lean queue")
                        .isTrue();
            }
            assertThat(lock.isQueued()).isFalse();
            letStarverGo.countDown();
            workers.joinAll(PROMPT); // a lost wake-up would leave a waiter parked here
        }
        assertThat(lock.isQueued()).isTrue();
        assertThat(section.counter()).isEqualTo(parked + 1L);
        assertThat(section.violations()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aQueuedLockTurnsLeanWhenArrivalsFindTheQueueFree(ThreadKind kind) throws Exception {
        NumaAdaptiveLock lock = queuedLock(kind);
        int acquisitions = 0;
        while (lock.isQueued() && acquisitions < 10 * NumaAdaptiveLock.WINDOW) {
            lock.lock(); // alone: the queue lock is free at every arrival
            lock.unlock();
            acquisitions++;
        }
        assertThat(lock.isQueued()).isFalse();
        assertThat(acquisitions).isEqualTo(NumaAdaptiveLock.FREE_TO_LEAN);
        assertThat(lock.modeSwitches()).isEqualTo(2);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void mutualExclusionAcrossModeSwitches(ThreadKind kind) throws Exception {
        NumaAdaptiveLock lock = new NumaAdaptiveLock(new ThreadIdNodes(2));
        CriticalSection section = new CriticalSection();
        int threads = kind.stressThreads();
        long phaseNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(100L, ConcurrencySupport.DURATION_MILLIS / 4));
        AtomicBoolean stop = new AtomicBoolean();
        long[] done = new long[threads];
        try (Workers workers = new Workers(lock)) {
            for (int t = 0; t < threads; t++) {
                int id = t;
                workers.start(kind, "switcher-" + t, () -> {
                    long phaseStart = System.nanoTime();
                    boolean hot = true;
                    while (!stop.get()) {
                        lock.lock();
                        try {
                            section.enter(false);
                            if (hot && id == 0 && done[id] % 100 == 99) {
                                Thread.sleep(2); // a long hold: the waiters starve, the lock turns queued
                            }
                        } finally {
                            lock.unlock();
                        }
                        done[id]++;
                        if (!hot) {
                            Thread.sleep(1); // cool: arrivals find the lock free
                        }
                        if (System.nanoTime() - phaseStart > phaseNanos) {
                            hot = !hot;
                            phaseStart = System.nanoTime();
                        }
                    }
                });
            }
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(4 * phaseNanos));
            stop.set(true);
            workers.joinAll(PROMPT);
        }
        long total = 0;
        for (long d : done) {
            total += d;
        }
        assertThat(section.violations()).isEmpty();
        assertThat(section.counter()).isEqualTo(total);
        System.out.printf("adaptive %s: %d acquisitions, %d mode switches%n", kind, total, lock.modeSwitches());
        assertThat(lock.modeSwitches())
                .as("turned queued under contention and lean when it cooled")
                .isGreaterThanOrEqualTo(2);
    }

    @Test
    void timedTryLockOnAQueuedLockHeldElsewhereGivesUp() throws Exception {
        NumaAdaptiveLock lock = queuedLock(ThreadKind.PLATFORM);
        try (Workers workers = new Workers(lock)) {
            ConcurrencySupport.Holder holder = ConcurrencySupport.hold(lock, ThreadKind.VIRTUAL, workers);
            assertThat(lock.isQueued()).isTrue();
            long start = System.nanoTime();
            assertThat(lock.tryLock(20, TimeUnit.MILLISECONDS)).isFalse();
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
            assertThat(lock.tryLock()).isFalse();
            holder.release();
        }
        assertThat(lock.tryLock(1, TimeUnit.SECONDS)).isTrue();
        lock.unlock();
    }

    /** A lock turned queued by one waiter that starved behind a holder. */
    private static NumaAdaptiveLock queuedLock(ThreadKind kind) throws Exception {
        NumaAdaptiveLock lock = new NumaAdaptiveLock(ONE_NODE);
        try (Workers workers = new Workers(lock)) {
            ConcurrencySupport.Holder holder = ConcurrencySupport.hold(lock, kind, workers);
            Thread waiter = workers.start(kind, "starver", () -> {
                lock.lock();
                lock.unlock();
            });
            assertThat(awaitParkedOrDone(waiter, PROMPT)).isTrue();
            Thread.sleep(Duration.ofNanos(3 * NumaAdaptiveLock.STARVING_NANOS));
            holder.release();
            workers.joinAll(PROMPT);
        }
        assertThat(lock.isQueued()).isTrue();
        return lock;
    }
}
