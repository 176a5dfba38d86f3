package dev.wordstats.numa.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.NumaHandoffLockTest.Probing;
import dev.wordstats.numa.scheduler.CustomScheduler;
import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The yield after a lean release of {@link NumaAdaptiveLock}: a virtual owner whose release wakes one of
 * PARKED_TO_YIELD parked waiters gives its carrier to it only while the lock is busy (most of the
 * window's acquisitions contended), and at a window's end one parked waiter is enough. On one carrier
 * the order is exact: the woken waiter is queued behind the owner, so it takes the lock before the
 * owner's next step only if the owner yields.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NumaAdaptiveLockYieldTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    @ParameterizedTest(name = "{0}")
    @EnumSource(Probing.class)
    void aReleaseYieldsToTheWokenWaiterOnlyOnceMostOfTheWindowContended(Probing probing) throws Exception {
        onOneCarrier(probing, (lock, oneCarrier) -> {
            // First round: the window holds only the owner's uncontended acquisition, so the release
            // that wakes the first of four parked waiters does not yield: the owner runs on first.
            assertThat(round(lock, oneCarrier, 1))
                    .as("a release on a lock whose window is mostly uncontended")
                    .startsWith("owner released", "owner ran on", "waiter 1 in");
            // Second round, same window: four of its six acquisitions contended (the waiters, which
            // parked), so this release yields, and the waiter it woke takes the lock first.
            assertThat(round(lock, oneCarrier, 2))
                    .as("a release on a lock whose window is mostly contended")
                    .startsWith("owner released", "waiter 1 in");
            assertThat(lock.isQueued()).as("ten acquisitions switch no mode").isFalse();
        });
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Probing.class)
    void aReleaseAtTheWindowsEndYieldsToOneWokenWaiter(Probing probing) throws Exception {
        onOneCarrier(probing, (lock, oneCarrier) -> {
            // The window's first two acquisitions (the owner's, then the waiter's): one waiter parked,
            // mid-window and mostly uncontended, so the owner runs on.
            assertThat(round(lock, oneCarrier, 1, 1, 0))
                    .as("a mid-window release that wakes one waiter")
                    .startsWith("owner released", "owner ran on", "waiter 1 in");
            // The owner's uncontended acquisitions fill the window up to its last, the round's: its
            // release wakes the one parked waiter and yields to it.
            int before = NumaAdaptiveLock.WINDOW - 2 - 1;
            assertThat(round(lock, oneCarrier, 2, 1, before))
                    .as("the release of the window's last acquisition, which wakes one waiter")
                    .startsWith("owner released", "waiter 1 in");
            // The next window: mid-window again, so the owner runs on.
            assertThat(round(lock, oneCarrier, 3, 1, 0))
                    .as("a mid-window release in the next window")
                    .startsWith("owner released", "owner ran on", "waiter 1 in");
            assertThat(lock.isQueued())
                    .as("a window with two contended acquisitions switches no mode")
                    .isFalse();
        });
    }

    /** What a test does with a new lock and a builder of virtual threads that all run on one carrier. */
    private interface OneCarrierTest {
        void run(NumaAdaptiveLock lock, Thread.Builder.OfVirtual oneCarrier) throws Exception;
    }

    private static void onOneCarrier(Probing probing, OneCarrierTest test) throws Exception {
        assertThat(CustomScheduler.available())
                .as("virtual threads on a scheduler of our own (%s)", CustomScheduler.unavailableReason())
                .isTrue();
        assertThat(MountState.available())
                .as("the owner-running check reads thread states")
                .isTrue();
        NumaAdaptiveLock lock = new NumaAdaptiveLock(
                TestLocks.context(NodeLocator.singleNode()), Duration.ofMillis(1), probing.probe());
        ExecutorService carrier = Executors.newSingleThreadExecutor(
                Thread.ofPlatform().name("one-carrier").daemon(true).factory());
        try {
            test.run(lock, CustomScheduler.builder(carrier));
        } finally {
            carrier.shutdown();
        }
    }

    private static List<String> round(NumaAdaptiveLock lock, Thread.Builder.OfVirtual threads, int round)
            throws Exception {
        return round(lock, threads, round, NumaAdaptiveLock.PARKED_TO_YIELD, 0);
    }

    /**
     * One owner takes and releases the lock {@code before} times alone, then takes it, and while it holds
     * it {@code parked} waiters arrive and park (the owner yields inside, so they run and see it not
     * running); then it releases. Returns what happened, in order.
     */
    private static List<String> round(
            NumaAdaptiveLock lock, Thread.Builder.OfVirtual threads, int round, int parked, int before)
            throws Exception {
        Queue<String> events = new ConcurrentLinkedQueue<>();
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> waiters = new ArrayList<>();
        Thread owner = threads.name("owner-" + round).unstarted(() -> {
            try {
                for (int i = 0; i < before; i++) {
                    lock.lock();
                    lock.unlock();
                }
                lock.lock();
                try {
                    for (int i = 1; i <= parked; i++) {
                        int n = i;
                        waiters.add(threads.name("waiter-" + round + "-" + n).start(() -> {
                            lock.lock();
                            try {
                                events.add("waiter " + n + " in");
                            } finally {
                                lock.unlock();
                            }
                        }));
                    }
                    long deadline = System.nanoTime() + BOUND.toNanos();
                    while (lock.parkedWaiters() < parked && System.nanoTime() - deadline < 0) {
                        Thread.yield(); // the carrier runs the waiters, which find the owner not running
                    }
                    events.add("owner released");
                } finally {
                    lock.unlock();
                }
                events.add("owner ran on");
            } catch (Throwable t) {
                failures.add(t);
            }
        });
        owner.start();
        assertThat(owner.join(BOUND)).as("the owner finishes").isTrue();
        for (Thread waiter : waiters) {
            assertThat(waiter.join(BOUND)).as("%s finishes", waiter.getName()).isTrue();
        }
        assertThat(failures).isEmpty();
        return List.copyOf(events);
    }
}
