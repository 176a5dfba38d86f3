package dev.wordstats.numa.lock;

import static dev.wordstats.numa.lock.ConcurrencySupport.PROMPT;
import static dev.wordstats.numa.lock.ConcurrencySupport.awaitParkedOrDone;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.lock.ConcurrencySupport.AssignedNodes;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Each mechanism of {@link NumaHandoffLock}, checked on its own so that a test fails when that
 * mechanism breaks (the {@link java.util.concurrent.locks.Lock} contract is {@link
 * NumaHandoffLockContractTest}'s), and the memory layout. Every wait is bounded by
 * {@link ConcurrencySupport#PROMPT}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NumaHandoffLockTest {

    private static final LockSettings ALL = LockSettings.DEFAULTS;

    // ---------------------------------------------------------------- spin only while the owner runs

    /**
     * The owner, a virtual thread, holds the lock parked (unmounted): the waiter, its node's
     * leader, parks without a single spin round. The same waiter behind a running owner (a
     * platform thread) spins before it parks, so the check is what stops the spin.
     */
    @Test
    void aLeaderDoesNotSpinWhileTheOwnerIsUnmounted() throws Exception {
        assertThat(NumaHandoffLock.ownerRunStateAvailable())
                .as("the build opens java.lang, so virtual-thread states are readable")
                .isTrue();
        assertThat(spinRoundsOfOneWaiterBehind(ThreadKind.VIRTUAL))
                .as("spin rounds behind an unmounted owner")
                .isZero();
        assertThat(spinRoundsOfOneWaiterBehind(ThreadKind.PLATFORM))
                .as("spin rounds behind a running owner")
                .isGreaterThanOrEqualTo(NumaHandoffLock.SPINS);
    }

    private static long spinRoundsOfOneWaiterBehind(ThreadKind ownerKind) throws Exception {
        NumaHandoffLock lock = new NumaHandoffLock(NodeLocator.singleNode(), ALL);
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (Workers workers = new Workers(lock)) {
            Thread owner = workers.start(ownerKind, "owner", () -> {
                lock.lock();
                try {
                    held.countDown();
                    release.await(); // a virtual owner unmounts here
                } finally {
                    lock.unlock();
                }
            });
            assertThat(held.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            assertThat(awaitParkedOrDone(owner, PROMPT)).isTrue();
            Thread waiter = workers.start(ThreadKind.VIRTUAL, "waiter", () -> {
                lock.lock();
                lock.unlock();
            });
            await(() -> lock.leaderOf(0) == waiter && !lock.leaderSpinning(0), "the waiter leads and parked");
            long spun = lock.spinRounds();
            release.countDown();
            workers.joinAll(PROMPT);
            return spun;
        }
    }

    // ---------------------------------------------------------------- one awake waiter

    /**
     * Three leaders on three nodes wait behind a running owner; leaders may spin for as long as
     * the owner holds the lock. With a cap of one awake leader, all but one park, so they do not
     * take carriers (or cores) from the owner.
     */
    @Test
    void noMoreSpinningLeadersThanTheCap() throws Exception {
        int leaders = 3;
        AssignedNodes nodes = new AssignedNodes(leaders + 1);
        NumaHandoffLock lock =
                new NumaHandoffLock(nodes, ALL, NumaHandoffLock.DEFAULT_IN_NODE_BUDGET, 1, Integer.MAX_VALUE, 0L);
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (Workers workers = new Workers(lock)) {
            workers.start(
                    ThreadKind.PLATFORM,
                    "owner",
                    () -> { // a platform owner always counts as running
                        lock.lock();
                        try {
                            held.countDown();
                            release.await();
                        } finally {
                            lock.unlock();
                        }
                    });
            assertThat(held.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            for (int n = 1; n <= leaders; n++) {
                int node = n;
                workers.start(ThreadKind.PLATFORM, "leader-" + n, () -> {
                    nodes.assign(node);
                    lock.lock();
                    lock.unlock();
                });
            }
            await(
                    () -> lock.leaderOf(1) != null && lock.leaderOf(2) != null && lock.leaderOf(3) != null,
                    "every node has a leader");
            await(() -> spinning(lock, leaders) <= 1, "at most one leader spins");
            Thread.sleep(20); // past reserveAfter: the parked leaders have settled
            for (int sample = 0; sample < 100; sample++) {
                assertThat(spinning(lock, leaders))
                        .as("spinning leaders, sample %d", sample)
                        .isLessThanOrEqualTo(1);
                Thread.sleep(1);
            }
            release.countDown();
            workers.joinAll(PROMPT);
        }
        assertThat(lock.isLocked()).isFalse();
    }

    private static int spinning(NumaHandoffLock lock, int leaders) {
        int spinning = 0;
        for (int n = 1; n <= leaders; n++) {
            spinning += lock.leaderSpinning(n) ? 1 : 0;
        }
        return spinning;
    }

    // ---------------------------------------------------------------- wake ahead

    /**
     * While an owner that came through the queue runs its critical section, its successor is
     * already the node's leader (woken), not a parked follower; without wake ahead it would lead
     * only after the release.
     */
    @Test
    void wakeAheadMakesTheSuccessorLeaderWhileTheOwnerRuns() throws Exception {
        assertThat(successorLeadsWhileOwnerHolds(ALL)).isTrue();
        LockSettings withoutWakeAhead =
                new LockSettings(NumaMcsLock.DEFAULT_RESERVE_AFTER, HandoffMechanism.allExcept("WAKE_AHEAD"));
        assertThat(successorLeadsWhileOwnerHolds(withoutWakeAhead)).isFalse();
    }

    private static boolean successorLeadsWhileOwnerHolds(LockSettings settings) throws Exception {
        NumaHandoffLock lock = new NumaHandoffLock(NodeLocator.singleNode(), settings);
        CountDownLatch firstHeld = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        CountDownLatch secondHeld = new CountDownLatch(1);
        CountDownLatch releaseSecond = new CountDownLatch(1);
        try (Workers workers = new Workers(lock)) {
            workers.start(ThreadKind.PLATFORM, "first", () -> {
                lock.lock();
                try {
                    firstHeld.countDown();
                    releaseFirst.await();
                } finally {
                    lock.unlock();
                }
            });
            assertThat(firstHeld.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS))
                    .isTrue();
            Thread second = workers.start(ThreadKind.PLATFORM, "second", () -> {
                lock.lock();
                try {
                    secondHeld.countDown();
                    releaseSecond.await();
                } finally {
                    lock.unlock();
                }
            });
            await(() -> lock.leaderOf(0) == second, "second leads the queue");
            Thread third = workers.start(ThreadKind.PLATFORM, "third", () -> {
                lock.lock();
                lock.unlock();
            });
            assertThat(awaitParkedOrDone(third, PROMPT)).isTrue();
            releaseFirst.countDown();
            assertThat(secondHeld.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS))
                    .isTrue();
            boolean leads = eventually(() -> lock.leaderOf(0) == third, Duration.ofMillis(500));
            releaseSecond.countDown();
            workers.joinAll(PROMPT);
            return leads;
        }
    }

    // ---------------------------------------------------------------- in-node pass

    /**
     * Platform threads of one node contend; a releasing owner whose node leader is awake hands it
     * the lock (here at once: passAfter 0).
     * The passes in a row, as each owner sees them, reach at least one and never exceed
     * the budget.
     */
    @Test
    void inNodePassRespectsItsBudget() throws Exception {
        int budget = 3;
        int threads = 3;
        NumaHandoffLock lock =
                new NumaHandoffLock(NodeLocator.singleNode(), ALL, budget, threads, NumaHandoffLock.SPINS, 0L);
        AtomicInteger maxStreak = new AtomicInteger();
        AtomicInteger passed = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch start = new CountDownLatch(1);
        try (Workers workers = new Workers(lock)) {
            for (int t = 0; t < threads; t++) {
                workers.start(ThreadKind.PLATFORM, "contender-" + t, () -> {
                    start.await();
                    while (!stop.get()) {
                        lock.lock();
                        try {
                            int streak = lock.passesInARow();
                            if (streak > 0) {
                                passed.incrementAndGet();
                            }
                            maxStreak.accumulateAndGet(streak, Math::max);
                            Thread.onSpinWait();
                        } finally {
                            lock.unlock();
                        }
                    }
                });
            }
            start.countDown();
            // Contend for the test's duration, and until some passes were seen (bounded by PROMPT).
            Thread.sleep(ConcurrencySupport.DURATION_MILLIS);
            eventually(() -> passed.get() >= 100, PROMPT);
            stop.set(true);
            workers.joinAll(PROMPT);
        }
        assertThat(passed.get()).as("acquisitions by an in-node pass").isPositive();
        assertThat(maxStreak.get()).as("longest run of passes").isBetween(1, budget);
    }

    @Test
    void withoutInNodePassNoOwnerIsPassedTheLock() throws Exception {
        LockSettings settings =
                new LockSettings(NumaMcsLock.DEFAULT_RESERVE_AFTER, HandoffMechanism.allExcept("IN_NODE_PASS"));
        NumaHandoffLock lock = new NumaHandoffLock(NodeLocator.singleNode(), settings, 3, 3, NumaHandoffLock.SPINS, 0L);
        AtomicInteger passed = new AtomicInteger();
        try (Workers workers = new Workers(lock)) {
            for (int t = 0; t < 3; t++) {
                workers.start(ThreadKind.PLATFORM, "contender-" + t, () -> {
                    for (int i = 0; i < 1_000; i++) {
                        lock.lock();
                        try {
                            passed.addAndGet(lock.passesInARow());
                        } finally {
                            lock.unlock();
                        }
                    }
                });
            }
            workers.joinAll(PROMPT.multipliedBy(2));
        }
        assertThat(passed.get()).isZero();
    }

    // ---------------------------------------------------------------- reservation

    /**
     * A leader of node 1 that has waited reserveAfter behind a node-0 owner reserves the lock, and
     * at the release the lock goes to it, not to the owner's own node, whose leader the in-node
     * pass would otherwise favour (here with an unbounded budget).
     */
    @Test
    void reservationBoundsOvertakingByAnotherNode() throws Exception {
        AssignedNodes nodes = new AssignedNodes(2);
        NumaHandoffLock lock = new NumaHandoffLock(
                nodes, new LockSettings(Duration.ofMillis(1)), Integer.MAX_VALUE, 4, NumaHandoffLock.SPINS, 0L);
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<String> next = new AtomicReference<>();
        try (Workers workers = new Workers(lock)) {
            workers.start(ThreadKind.PLATFORM, "holder", () -> {
                nodes.assign(0);
                lock.lock();
                try {
                    held.countDown();
                    release.await();
                } finally {
                    lock.unlock();
                }
            });
            assertThat(held.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            Thread remote = workers.start(ThreadKind.VIRTUAL, "remote", () -> {
                nodes.assign(1);
                lock.lock();
                try {
                    next.compareAndSet(null, "remote");
                } finally {
                    lock.unlock();
                }
            });
            await(lock::isReserved, "the remote leader reserves the lock");
            assertThat(lock.toString()).contains("Reserved by thread remote");
            Thread local = workers.start(ThreadKind.PLATFORM, "local", () -> {
                nodes.assign(0);
                lock.lock();
                try {
                    next.compareAndSet(null, "local");
                } finally {
                    lock.unlock();
                }
            });
            await(() -> lock.leaderOf(0) == local, "the holder's node has a leader too");
            release.countDown();
            workers.joinAll(PROMPT);
            assertThat(remote.isAlive()).isFalse();
        }
        assertThat(next.get()).as("the owner after the holder").isEqualTo("remote");
        assertThat(lock.isReserved()).isFalse();
    }

    @Test
    void reservationThresholdComesFromTheSettingsAndKnobsAreChecked() {
        assertThat(new NumaHandoffLock(NodeLocator.singleNode()).reserveAfter()).isEqualTo(Duration.ofMillis(1));
        assertThat(new NumaHandoffLock(NodeLocator.singleNode(), new LockSettings(Duration.ofDays(365 * 1000L)))
                        .reserveAfter())
                .isEqualTo(Duration.ofNanos(Long.MAX_VALUE));
        assertThatThrownBy(() -> new NumaHandoffLock(NodeLocator.singleNode(), ALL, 0, 1, 1, 0L))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new NumaHandoffLock(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new NumaHandoffLock(NodeLocator.singleNode()).newCondition())
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("FAIR_REENTRANT");
        assertThat(new NumaHandoffLock(new AssignedNodes(3)).queueCount()).isEqualTo(3);
        assertThat(Set.copyOf(LockSettings.DEFAULTS.handoffMechanisms())).isEqualTo(HandoffMechanism.all());
    }

    @Test
    void toStringNamesOwnerAndQueues() throws Exception {
        NumaHandoffLock lock = new NumaHandoffLock(new AssignedNodes(2));
        assertThat(lock.toString()).contains("[Unlocked]", "queues=2");
        lock.lock();
        assertThat(lock.toString())
                .contains("[Locked by thread " + Thread.currentThread().getName() + "]");
        lock.unlock();
    }

    // ---------------------------------------------------------------- layout

    @Test
    void lockStateIsPaddedFromEveryOtherField() {
        NumaMcsLockTest.assertHotFieldsPadded(NumaHandoffLock.class, "state");
    }

    @Test
    void nodeQueueTailIsPaddedFromEveryOtherField() {
        NumaMcsLockTest.assertHotFieldsPadded(HandoffQueue.class, "tail");
    }

    // ---------------------------------------------------------------- helpers

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        assertThat(eventually(condition, PROMPT)).as(what).isTrue();
    }

    private static boolean eventually(BooleanSupplier condition, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }
}
