package dev.wordstats.numa.lock;

import static dev.wordstats.numa.lock.ConcurrencySupport.DURATION_MILLIS;
import static dev.wordstats.numa.lock.ConcurrencySupport.PROMPT;
import static dev.wordstats.numa.lock.ConcurrencySupport.SEED;
import static dev.wordstats.numa.lock.ConcurrencySupport.awaitParkedOrDone;
import static dev.wordstats.numa.lock.ConcurrencySupport.hold;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.lock.ConcurrencySupport.CriticalSection;
import dev.wordstats.numa.lock.ConcurrencySupport.Holder;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadIdNodes;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link Lock} contract every {@link LockType} must keep, after JCTools' {@code QueueSanityTest}:
 * one abstract test, one small subclass per lock. Each behaviour runs with virtual and with platform
 * threads. Stress parts are bounded by {@link ConcurrencySupport}'s properties; every wait on
 * another thread is bounded by {@link ConcurrencySupport#PROMPT}, and a thread still running then
 * fails the test with a thread dump instead of hanging the build.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
public abstract class LockContractTest {

    /** A new lock of the type under test, locating nodes with {@code nodes}. */
    protected abstract Lock newLock(NodeLocator nodes);

    /** The type's hold-count view (as {@code ReentrantLock} and {@code NumaMcsLock} have), if any. */
    protected abstract Optional<HoldCounts> holdCounts();

    /** Reads the owner state of a lock type that has one. */
    protected interface HoldCounts {
        int holdCount(Lock lock);

        boolean isHeldByCurrentThread(Lock lock);

        boolean isLocked(Lock lock);
    }

    /** The owner view of {@link java.util.concurrent.locks.ReentrantLock}, for the types built on it. */
    protected static final HoldCounts REENTRANT_LOCK_HOLDS = new HoldCounts() {
        @Override
        public int holdCount(Lock lock) {
            return ((java.util.concurrent.locks.ReentrantLock) lock).getHoldCount();
        }

        @Override
        public boolean isHeldByCurrentThread(Lock lock) {
            return ((java.util.concurrent.locks.ReentrantLock) lock).isHeldByCurrentThread();
        }

        @Override
        public boolean isLocked(Lock lock) {
            return ((java.util.concurrent.locks.ReentrantLock) lock).isLocked();
        }
    };

    /** Contended tests spread threads over two simulated nodes, so NUMA-aware locks hand off across nodes. */
    protected Lock newContendedLock() {
        return newLock(new ThreadIdNodes(2));
    }

    protected Lock newLock() {
        return newLock(NodeLocator.singleNode());
    }

    // ---------------------------------------------------------------- mutual exclusion

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void mutualExclusionKeepsNonAtomicCounterExact(ThreadKind kind) throws Exception {
        Lock lock = newContendedLock();
        CriticalSection section = new CriticalSection();
        LongAdder acquisitions = new LongAdder();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DURATION_MILLIS);
        try (Workers workers = new Workers(lock)) {
            for (int t = 0; t < kind.stressThreads(); t++) {
                int index = t;
                workers.start(kind, "contender-" + t, () -> {
                    long mine = 0;
                    while (System.nanoTime() < end) {
                        lock.lock();
                        try {
                            section.enter((mine + index) % 16 == 0);
                        } finally {
                            lock.unlock();
                        }
                        mine++;
                    }
                    acquisitions.add(mine);
                });
            }
            workers.joinAll(Duration.ofMillis(DURATION_MILLIS).plus(PROMPT));
        }
        assertThat(section.violations()).as("threads seen inside together").isEmpty();
        assertThat(section.counter())
                .as("non-atomic counter after %d acquisitions", acquisitions.sum())
                .isEqualTo(acquisitions.sum())
                .isPositive();
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void mutualExclusionHoldsForEveryAcquireMethod(ThreadKind kind) throws Exception {
        Lock lock = newContendedLock();
        CriticalSection section = new CriticalSection();
        LongAdder acquisitions = new LongAdder();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DURATION_MILLIS);
        try (Workers workers = new Workers(lock + " seed " + SEED)) {
            for (int t = 0; t < kind.stressThreads(); t++) {
                SplittableRandom random = new SplittableRandom(SEED + t);
                workers.start(kind, "contender-" + t, () -> {
                    long mine = 0;
                    while (System.nanoTime() < end) {
                        boolean acquired = switch (random.nextInt(4)) {
                            case 0 -> {
                                lock.lock();
                                yield true;
                            }
                            case 1 -> {
                                lock.lockInterruptibly();
                                yield true;
                            }
                            case 2 -> lock.tryLock();
                            default -> lock.tryLock(random.nextInt(50_000), TimeUnit.NANOSECONDS);
                        };
                        if (acquired) {
                            try {
                                section.enter(random.nextInt(16) == 0);
                            } finally {
                                lock.unlock();
                            }
                            mine++;
                        }
                    }
                    acquisitions.add(mine);
                });
            }
            workers.joinAll(Duration.ofMillis(DURATION_MILLIS).plus(PROMPT));
        }
        assertThat(section.violations())
                .as("threads seen inside together (seed %d)", SEED)
                .isEmpty();
        assertThat(section.counter())
                .as("non-atomic counter (seed %d)", SEED)
                .isEqualTo(acquisitions.sum())
                .isPositive();
    }

    // ---------------------------------------------------------------- tryLock

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void tryLockTakesFreeLockAndFailsOnLockHeldByAnotherThread(ThreadKind kind) throws Exception {
        Lock lock = newLock();
        try (Workers workers = new Workers(lock)) {
            inThread(kind, "trier", () -> {
                assertThat(lock.tryLock()).as("tryLock on a free lock").isTrue();
                lock.unlock();
            });
            Holder holder = hold(lock, kind, workers);
            inThread(kind, "trier", () -> {
                assertThat(lock.tryLock()).as("tryLock on a held lock").isFalse();
                assertThat(lock.tryLock(0, TimeUnit.NANOSECONDS))
                        .as("tryLock(0) on a held lock")
                        .isFalse();
                assertThat(lock.tryLock(-1, TimeUnit.SECONDS))
                        .as("tryLock(negative) on a held lock")
                        .isFalse();
            });
            holder.release();
            inThread(kind, "trier", () -> {
                assertThat(lock.tryLock())
                        .as("tryLock after the holder released")
                        .isTrue();
                lock.unlock();
            });
            workers.joinAll(PROMPT);
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void timedTryLockGivesUpAndLeavesLockUsable(ThreadKind kind) throws Exception {
        Lock lock = newContendedLock();
        long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(100);
        AtomicBoolean behindAcquired = new AtomicBoolean();
        try (Workers workers = new Workers(lock)) {
            Holder holder = hold(lock, kind, workers);
            CountDownLatch gaveUp = new CountDownLatch(1);
            Thread timed = workers.start(kind, "timed", () -> {
                long start = System.nanoTime();
                boolean acquired = lock.tryLock(timeoutNanos, TimeUnit.NANOSECONDS);
                long waited = System.nanoTime() - start;
                assertThat(acquired).as("timed tryLock on a held lock").isFalse();
                assertThat(waited).as("nanos waited before giving up").isGreaterThanOrEqualTo(timeoutNanos);
                gaveUp.countDown();
            });
            awaitParkedOrDone(timed, Duration.ofMillis(50));
            // Queued behind the one that gives up: must still be woken when the holder releases.
            Thread behind = workers.start(kind, "behind", () -> {
                lock.lock();
                try {
                    behindAcquired.set(true);
                } finally {
                    lock.unlock();
                }
            });
            assertThat(gaveUp.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS))
                    .as("timed tryLock returned")
                    .isTrue();
            assertThat(behindAcquired)
                    .as("waiter behind acquired before the holder released")
                    .isFalse();
            holder.release();
            behind.join(PROMPT);
            assertThat(behindAcquired)
                    .as("waiter behind the one that gave up acquired")
                    .isTrue();
            inThread(kind, "after", () -> {
                assertThat(lock.tryLock(PROMPT.toMillis(), TimeUnit.MILLISECONDS))
                        .as("lock usable afterwards")
                        .isTrue();
                lock.unlock();
            });
            workers.joinAll(PROMPT);
        }
    }

    // ---------------------------------------------------------------- interrupts

    /** The two acquisitions that wait interruptibly: each test below runs for both. */
    enum InterruptibleAcquire {
        LOCK_INTERRUPTIBLY {
            @Override
            void acquire(Lock lock) throws InterruptedException {
                lock.lockInterruptibly();
            }
        },
        TIMED_TRY_LOCK {
            @Override
            void acquire(Lock lock) throws InterruptedException {
                if (!lock.tryLock(1, TimeUnit.HOURS)) {
                    throw new AssertionError("a timed tryLock of an hour gave up");
                }
            }
        };

        /** Acquires {@code lock} this way, or throws InterruptedException. */
        abstract void acquire(Lock lock) throws InterruptedException;
    }

    static Stream<Arguments> interruptibleAcquiresAndKinds() {
        return Arrays.stream(InterruptibleAcquire.values())
                .flatMap(how -> Arrays.stream(ThreadKind.values()).map(kind -> Arguments.of(how, kind)));
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("interruptibleAcquiresAndKinds")
    void interruptibleAcquireRespondsToInterruptAndLeavesLockUsable(InterruptibleAcquire how, ThreadKind kind)
            throws Exception {
        Lock lock = newContendedLock();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean behindAcquired = new AtomicBoolean();
        try (Workers workers = new Workers(lock + " " + how)) {
            Holder holder = hold(lock, kind, workers);
            Thread waiter = workers.start(kind, "interruptible", () -> {
                try {
                    how.acquire(lock);
                    lock.unlock();
                    thrown.set(new AssertionError("acquired a held lock"));
                } catch (InterruptedException expected) {
                    thrown.set(expected);
                    assertThat(Thread.currentThread().isInterrupted())
                            .as("status cleared by the exception")
                            .isFalse();
                }
            });
            awaitParkedOrDone(waiter, Duration.ofMillis(200));
            // Queued behind the one that is interrupted: must still be woken when the holder releases.
            Thread behind = workers.start(kind, "behind", () -> {
                lock.lock();
                try {
                    behindAcquired.set(true);
                } finally {
                    lock.unlock();
                }
            });
            awaitParkedOrDone(behind, Duration.ofMillis(200));
            waiter.interrupt();
            assertThat(waiter.join(PROMPT)) // join's answer, not isAlive() (see Workers.joinAll)
                    .as("interrupted waiter returned while the lock is held")
                    .isTrue();
            assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
            assertThat(behindAcquired)
                    .as("waiter behind acquired before the holder released")
                    .isFalse();
            holder.release();
            behind.join(PROMPT);
            assertThat(behindAcquired)
                    .as("waiter behind the interrupted one acquired")
                    .isTrue();
            assertLockUsableByTwoThreads(lock, kind);
            workers.joinAll(PROMPT);
        }
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("interruptibleAcquiresAndKinds")
    void interruptibleAcquireWithInterruptPendingThrowsWithoutAcquiring(InterruptibleAcquire how, ThreadKind kind)
            throws Exception {
        Lock lock = newLock();
        inThread(kind, "interrupted", () -> {
            Thread.currentThread().interrupt();
            assertThatThrownBy(() -> how.acquire(lock))
                    .as("%s on a free lock, interrupt pending", how)
                    .isInstanceOf(InterruptedException.class);
            assertThat(Thread.currentThread().isInterrupted())
                    .as("status cleared by the exception")
                    .isFalse();
        });
        assertLockUsableByTwoThreads(lock, kind);
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void lockIsNotInterruptibleButKeepsInterruptStatus(ThreadKind kind) throws Exception {
        Lock lock = newContendedLock();
        AtomicBoolean acquired = new AtomicBoolean();
        AtomicBoolean interruptedAfterLock = new AtomicBoolean();
        try (Workers workers = new Workers(lock)) {
            Holder holder = hold(lock, kind, workers);
            Thread waiter = workers.start(kind, "uninterruptible", () -> {
                lock.lock();
                try {
                    acquired.set(true);
                    interruptedAfterLock.set(Thread.currentThread().isInterrupted());
                } finally {
                    lock.unlock();
                }
            });
            awaitParkedOrDone(waiter, Duration.ofMillis(200));
            waiter.interrupt();
            waiter.join(Duration.ofMillis(100));
            assertThat(acquired)
                    .as("lock() returned on interrupt while the lock was held")
                    .isFalse();
            assertThat(waiter.isAlive())
                    .as("lock() still waiting after the interrupt")
                    .isTrue();
            holder.release();
            waiter.join(PROMPT);
            assertThat(acquired).as("lock() acquired once released").isTrue();
            assertThat(interruptedAfterLock)
                    .as("interrupt status kept across lock()")
                    .isTrue();
            workers.joinAll(PROMPT);
        }
        inThread(kind, "interrupted", () -> {
            Thread.currentThread().interrupt();
            lock.lock();
            try {
                assertThat(Thread.currentThread().isInterrupted())
                        .as("status kept when lock() takes a free lock")
                        .isTrue();
            } finally {
                lock.unlock();
            }
            Thread.interrupted();
        });
    }

    // ---------------------------------------------------------------- reentrancy and ownership

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void reentrantAcquisitionsNeedAsManyUnlocks(ThreadKind kind) throws Exception {
        Lock lock = newLock();
        Optional<HoldCounts> holds = holdCounts();
        CountDownLatch[] step = {new CountDownLatch(1), new CountDownLatch(1), new CountDownLatch(1)};
        CountDownLatch[] checked = {new CountDownLatch(1), new CountDownLatch(1)};
        try (Workers workers = new Workers(lock)) {
            workers.start(kind, "owner", () -> {
                lock.lock();
                assertThat(lock.tryLock()).as("reentrant tryLock").isTrue();
                assertThat(lock.tryLock(1, TimeUnit.MILLISECONDS))
                        .as("reentrant timed tryLock")
                        .isTrue();
                lock.lockInterruptibly();
                lock.lock();
                holds.ifPresent(h -> {
                    assertThat(h.holdCount(lock)).as("hold count").isEqualTo(5);
                    assertThat(h.isHeldByCurrentThread(lock)).isTrue();
                    assertThat(h.isLocked(lock)).isTrue();
                });
                step[0].countDown();
                checked[0].await();
                for (int i = 4; i >= 1; i--) {
                    lock.unlock();
                    int left = i;
                    holds.ifPresent(
                            h -> assertThat(h.holdCount(lock)).as("hold count").isEqualTo(left));
                }
                step[1].countDown();
                checked[1].await();
                lock.unlock();
                holds.ifPresent(h -> {
                    assertThat(h.holdCount(lock)).as("hold count when free").isZero();
                    assertThat(h.isHeldByCurrentThread(lock)).isFalse();
                });
                assertThatThrownBy(lock::unlock)
                        .as("one unlock too many")
                        .isInstanceOf(IllegalMonitorStateException.class);
                step[2].countDown();
            });
            for (int s = 0; s < 2; s++) {
                assertThat(step[s].await(PROMPT.toMillis(), TimeUnit.MILLISECONDS))
                        .isTrue();
                inThread(kind, "other", () -> {
                    assertThat(lock.tryLock())
                            .as("other thread's tryLock while the owner holds")
                            .isFalse();
                    holds.ifPresent(h -> {
                        assertThat(h.isLocked(lock)).isTrue();
                        assertThat(h.isHeldByCurrentThread(lock)).isFalse();
                        assertThat(h.holdCount(lock))
                                .as("other thread's hold count")
                                .isZero();
                    });
                });
                checked[s].countDown();
            }
            assertThat(step[2].await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            workers.joinAll(PROMPT);
        }
        holdCounts()
                .ifPresent(h -> assertThat(h.isLocked(lock))
                        .as("locked after the last unlock")
                        .isFalse());
        assertLockUsableByTwoThreads(lock, kind);
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void unlockByNonOwnerThrows(ThreadKind kind) throws Exception {
        Lock lock = newLock();
        try (Workers workers = new Workers(lock)) {
            Holder holder = hold(lock, kind, workers);
            inThread(kind, "intruder", () -> {
                assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
                assertThat(lock.tryLock())
                        .as("lock still held after the failed unlock")
                        .isFalse();
            });
            holder.release();
            workers.joinAll(PROMPT);
        }
        assertLockUsableByTwoThreads(lock, kind);
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void unlockWhenFreeThrows(ThreadKind kind) throws Exception {
        Lock lock = newLock();
        inThread(
                kind,
                "intruder",
                () -> assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class));
        assertLockUsableByTwoThreads(lock, kind);
    }

    // ---------------------------------------------------------------- waiting and wake-ups

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void blockedWaiterParksInsteadOfSpinningForever(ThreadKind kind) throws Exception {
        Lock lock = newContendedLock();
        try (Workers workers = new Workers(lock)) {
            Holder holder = hold(lock, kind, workers);
            Thread waiter = workers.start(kind, "waiter", () -> {
                lock.lock();
                lock.unlock();
            });
            assertThat(awaitParkedOrDone(waiter, PROMPT))
                    .as("waiter parked (state %s)", waiter.getState())
                    .isTrue();
            assertThat(waiter.isAlive())
                    .as("waiter still waiting for a held lock")
                    .isTrue();
            holder.release();
            workers.joinAll(PROMPT);
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void releaseChainWakesEveryWaiter(ThreadKind kind) throws Exception {
        int waiters = 4 * kind.stressThreads();
        for (int round = 0; round < 3; round++) {
            Lock lock = newContendedLock();
            CriticalSection section = new CriticalSection();
            try (Workers workers = new Workers(lock + " round " + round)) {
                Holder holder = hold(lock, kind, workers);
                List<Thread> started = new ArrayList<>();
                for (int w = 0; w < waiters; w++) {
                    int variant = (w + round) % 3;
                    started.add(workers.start(kind, "waiter-" + w, () -> {
                        switch (variant) {
                            case 0 -> lock.lock();
                            case 1 -> lock.lockInterruptibly();
                            default ->
                                assertThat(lock.tryLock(1, TimeUnit.HOURS)).isTrue();
                        }
                        try {
                            section.enter(true);
                        } finally {
                            lock.unlock();
                        }
                    }));
                }
                for (Thread thread : started) {
                    awaitParkedOrDone(thread, Duration.ofMillis(100));
                }
                holder.release();
                workers.joinAll(PROMPT);
            }
            assertThat(section.violations()).isEmpty();
            assertThat(section.counter())
                    .as("waiters that acquired in round %d", round)
                    .isEqualTo(waiters);
        }
    }

    /**
     * Many waiters of both kinds, some with short timed tryLocks, some interrupted at random while
     * they wait, the rest in plain lock(): every thread must finish (no waiter stranded by a
     * neighbour that left the queue) and the counter must equal the successful acquisitions.
     */
    @Test
    void timeoutAndInterruptStormEndsWithEveryThreadDoneAndCounterExact() throws Exception {
        Lock lock = newContendedLock();
        CriticalSection section = new CriticalSection();
        LongAdder acquisitions = new LongAdder();
        LongAdder timeouts = new LongAdder();
        LongAdder interrupts = new LongAdder();
        AtomicLong interruptsSent = new AtomicLong();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DURATION_MILLIS);
        List<Thread> waiters = new ArrayList<>();
        String context = lock + " seed " + SEED;
        try (Workers workers = new Workers(context)) {
            int index = 0;
            for (ThreadKind kind : ThreadKind.values()) {
                for (int t = 0; t < kind.stressThreads(); t++, index++) {
                    SplittableRandom random = new SplittableRandom(SEED + index);
                    waiters.add(workers.start(kind, "storm-" + kind + "-" + t, () -> {
                        long mine = 0;
                        while (System.nanoTime() < end) {
                            boolean acquired;
                            try {
                                int pick = random.nextInt(10);
                                if (pick < 4) {
                                    lock.lock();
                                    acquired = true;
                                } else if (pick < 6) {
                                    lock.lockInterruptibly();
                                    acquired = true;
                                } else if (pick < 9) {
                                    acquired = lock.tryLock(random.nextInt(200_000), TimeUnit.NANOSECONDS);
                                } else {
                                    acquired = lock.tryLock();
                                }
                            } catch (InterruptedException e) {
                                interrupts.increment();
                                continue;
                            }
                            if (!acquired) {
                                timeouts.increment();
                                continue;
                            }
                            try {
                                section.enter(random.nextInt(2) == 0);
                            } finally {
                                lock.unlock();
                            }
                            mine++;
                            Thread.interrupted(); // lock() and tryLock() keep a status set while they ran
                        }
                        acquisitions.add(mine);
                    }));
                }
            }
            SplittableRandom random = new SplittableRandom(SEED - 1);
            workers.start(ThreadKind.PLATFORM, "interrupter", () -> {
                while (System.nanoTime() < end) {
                    waiters.get(random.nextInt(waiters.size())).interrupt();
                    interruptsSent.incrementAndGet();
                    TimeUnit.MICROSECONDS.sleep(random.nextInt(200));
                }
            });
            workers.joinAll(Duration.ofMillis(DURATION_MILLIS).plus(PROMPT));
        }
        System.out.printf(
                "storm on %s: %d acquisitions, %d gave up, %d interrupted (%d interrupts sent), seed %d%n",
                lock, acquisitions.sum(), timeouts.sum(), interrupts.sum(), interruptsSent.get(), SEED);
        assertThat(section.violations())
                .as("threads seen inside together; %s", context)
                .isEmpty();
        assertThat(section.counter())
                .as("counter vs successful acquisitions; %s", context)
                .isEqualTo(acquisitions.sum())
                .isPositive();
        assertThat(lock.tryLock()).as("lock free after the storm; %s", context).isTrue();
        lock.unlock();
        holdCounts()
                .ifPresent(h -> assertThat(h.isLocked(lock))
                        .as("locked after the storm")
                        .isFalse());
        assertLockUsableByTwoThreads(lock, ThreadKind.VIRTUAL);
    }

    // ---------------------------------------------------------------- conditions (after the JSR 166 TCK's
    // ReentrantLockTest)

    /** Whether the type's locks have conditions; a type without them must throw from newCondition(). */
    protected boolean hasConditions() {
        return true;
    }

    /** A condition of a new contended lock of the type, the test skipped for a type without conditions. */
    private Condition newConditionOrSkip(Lock lock) {
        Assumptions.assumeTrue(hasConditions(), "the type has no conditions");
        return lock.newCondition();
    }

    @Test
    void newConditionThrowsOnlyForATypeWithoutConditions() {
        Lock lock = newLock();
        if (hasConditions()) {
            assertThat(lock.newCondition()).isNotNull().isNotSameAs(lock.newCondition());
        } else {
            assertThatThrownBy(lock::newCondition).isInstanceOf(UnsupportedOperationException.class);
        }
    }

    /** The ways to wait on a condition that an interrupt ends; each bounded far beyond any test's wait. */
    enum InterruptibleAwait {
        AWAIT {
            @Override
            boolean await(Condition c) throws InterruptedException {
                c.await();
                return true;
            }
        },
        AWAIT_NANOS {
            @Override
            boolean await(Condition c) throws InterruptedException {
                return c.awaitNanos(LONG_WAIT.toNanos()) > 0L;
            }
        },
        AWAIT_TIMED {
            @Override
            boolean await(Condition c) throws InterruptedException {
                return c.await(LONG_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
        },
        AWAIT_UNTIL {
            @Override
            boolean await(Condition c) throws InterruptedException {
                return c.awaitUntil(new Date(System.currentTimeMillis() + LONG_WAIT.toMillis()));
            }
        };

        /** Awaits {@code c}: true when woken before the (long) bound. */
        abstract boolean await(Condition c) throws InterruptedException;
    }

    private static final Duration LONG_WAIT = Duration.ofMinutes(5);

    static Stream<Arguments> interruptibleAwaitsAndKinds() {
        return Arrays.stream(InterruptibleAwait.values())
                .flatMap(how -> Arrays.stream(ThreadKind.values()).map(kind -> Arguments.of(how, kind)));
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void conditionMethodsThrowIllegalMonitorStateWithoutTheLock(ThreadKind kind) throws Exception {
        Lock lock = newLock();
        Condition c = newConditionOrSkip(lock);
        List<ConcurrencySupport.Body> uses = List.of(
                c::await,
                () -> c.awaitNanos(1_000_000L),
                () -> c.await(1, TimeUnit.MILLISECONDS),
                () -> c.awaitUntil(new Date(System.currentTimeMillis() + 1)),
                c::awaitUninterruptibly,
                c::signal,
                c::signalAll);
        inThread(kind, "not an owner", () -> {
            for (ConcurrencySupport.Body use : uses) {
                assertThatThrownBy(use::run).isInstanceOf(IllegalMonitorStateException.class);
            }
        });
        try (Workers workers = new Workers(lock)) {
            Holder holder = hold(lock, kind, workers);
            inThread(kind, "while another holds it", () -> {
                for (ConcurrencySupport.Body use : uses) {
                    assertThatThrownBy(use::run).isInstanceOf(IllegalMonitorStateException.class);
                }
            });
            holder.release();
            workers.joinAll(PROMPT);
        }
        assertLockUsableByTwoThreads(lock, kind);
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("interruptibleAwaitsAndKinds")
    void signalledWaiterReturnsOnlyOnceItHoldsTheLockAgain(InterruptibleAwait how, ThreadKind kind) throws Exception {
        Lock lock = newContendedLock();
        Condition c = newConditionOrSkip(lock);
        AtomicBoolean waiting = new AtomicBoolean();
        AtomicBoolean returned = new AtomicBoolean();
        AtomicBoolean signalled = new AtomicBoolean();
        try (Workers workers = new Workers(lock + " " + how)) {
            Thread waiter = workers.start(kind, "waiter", () -> {
                lock.lock();
                try {
                    waiting.set(true);
                    while (!signalled.get()) { // spurious wake-ups are allowed
                        assertThat(how.await(c)).as("woken before the bound").isTrue();
                    }
                    returned.set(true);
                    assertHeldByCurrentThread(lock, 1);
                } finally {
                    lock.unlock();
                }
            });
            awaitWaiting(lock, waiting);
            lock.lock(); // the waiter released it to wait
            try {
                signalled.set(true);
                c.signal();
                waiter.join(Duration.ofMillis(100));
                assertThat(returned)
                        .as("returned while the signaller holds the lock")
                        .isFalse();
            } finally {
                lock.unlock();
            }
            workers.joinAll(PROMPT);
        }
        assertThat(returned).isTrue();
        assertLockUsableByTwoThreads(lock, kind);
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void awaitReleasesEveryHoldAndRestoresTheHoldCount(ThreadKind kind) throws Exception {
        Lock lock = newContendedLock();
        Condition c = newConditionOrSkip(lock);
        AtomicBoolean waiting = new AtomicBoolean();
        AtomicBoolean signalled = new AtomicBoolean();
        try (Workers workers = new Workers(lock)) {
            workers.start(kind, "reentrant waiter", () -> {
                lock.lock();
                lock.lock();
                lock.lock();
                try {
                    waiting.set(true);
                    while (!signalled.get()) {
                        c.await();
                    }
                    assertHeldByCurrentThread(lock, 3);
                } finally {
                    lock.unlock();
                    lock.unlock();
                    lock.unlock();
                }
                assertHeldByCurrentThread(lock, 0);
            });
            awaitWaiting(lock, waiting);
            // Another thread takes the lock: the three holds were all released.
            inThread(kind, "signaller", () -> {
                assertThat(lock.tryLock(PROMPT.toMillis(), TimeUnit.MILLISECONDS))
                        .as("lock free while its reentrant owner waits")
                        .isTrue();
                try {
                    signalled.set(true);
                    c.signal();
                } finally {
                    lock.unlock();
                }
            });
            workers.joinAll(PROMPT);
        }
        assertLockUsableByTwoThreads(lock, kind);
    }

    /**
     * Lost signals: two threads hand a token back and forth through two conditions many times,
     * each waiting on its predicate in a loop; a signal lost between the predicate check and the
     * park would stall the exchange (the join's bound then fails the test with a dump).
     */
    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void pingPongLosesNoSignal(ThreadKind kind) throws Exception {
        Lock lock = newContendedLock();
        Condition pinged = newConditionOrSkip(lock);
        Condition ponged = lock.newCondition();
        int rounds = 2_000;
        int[] turn = {0}; // even: ping's turn; guarded by the lock
        try (Workers workers = new Workers(lock)) {
            for (int side = 0; side < 2; side++) {
                int mine = side;
                Condition wait = side == 0 ? ponged : pinged;
                Condition wake = side == 0 ? pinged : ponged;
                workers.start(kind, side == 0 ? "ping" : "pong", () -> {
                    for (int r = 0; r < rounds; r++) {
                        lock.lock();
                        try {
                            while ((turn[0] & 1) != mine) {
                                if (r % 2 == 0) {
                                    wait.await();
                                } else {
                                    wait.awaitNanos(TimeUnit.MILLISECONDS.toNanos(50)); // a timeout only re-checks
                                }
                            }
                            turn[0]++;
                            wake.signal();
                        } finally {
                            lock.unlock();
                        }
                    }
                });
            }
            workers.joinAll(PROMPT);
        }
        lock.lock();
        try {
            assertThat(turn[0]).isEqualTo(2 * rounds);
        } finally {
            lock.unlock();
        }
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("interruptibleAwaitsAndKinds")
    void interruptedAwaitThrowsOnceItHoldsTheLockAgain(InterruptibleAwait how, ThreadKind kind) throws Exception {
        Lock lock = newContendedLock();
        Condition c = newConditionOrSkip(lock);
        AtomicBoolean waiting = new AtomicBoolean();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        try (Workers workers = new Workers(lock + " " + how)) {
            Thread waiter = workers.start(kind, "waiter", () -> {
                lock.lock();
                try {
                    waiting.set(true);
                    while (true) {
                        how.await(c); // nobody signals: only the interrupt ends the wait
                    }
                } catch (InterruptedException expected) {
                    thrown.set(expected);
                    assertThat(Thread.currentThread().isInterrupted())
                            .as("status cleared by the exception")
                            .isFalse();
                    assertHeldByCurrentThread(lock, 1);
                } finally {
                    lock.unlock();
                }
            });
            awaitWaiting(lock, waiting);
            assertThat(awaitParkedOrDone(waiter, PROMPT))
                    .as("a waiter parks on its condition, it does not spin")
                    .isTrue();
            lock.lock();
            try {
                waiter.interrupt();
                waiter.join(Duration.ofMillis(100));
                assertThat(thrown.get())
                        .as("threw while the lock is held by another")
                        .isNull();
            } finally {
                lock.unlock();
            }
            workers.joinAll(PROMPT);
        }
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        assertLockUsableByTwoThreads(lock, kind);
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("interruptibleAwaitsAndKinds")
    void awaitWithInterruptPendingThrowsAndKeepsTheLock(InterruptibleAwait how, ThreadKind kind) throws Exception {
        Lock lock = newLock();
        Condition c = newConditionOrSkip(lock);
        inThread(kind, "interrupted", () -> {
            lock.lock();
            try {
                Thread.currentThread().interrupt();
                assertThatThrownBy(() -> how.await(c)).isInstanceOf(InterruptedException.class);
                assertThat(Thread.currentThread().isInterrupted()).isFalse();
                assertHeldByCurrentThread(lock, 1);
            } finally {
                lock.unlock();
            }
        });
        assertLockUsableByTwoThreads(lock, kind);
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void awaitUninterruptiblyWaitsForTheSignalAndKeepsTheInterrupt(ThreadKind kind) throws Exception {
        Lock lock = newContendedLock();
        Condition c = newConditionOrSkip(lock);
        AtomicBoolean waiting = new AtomicBoolean();
        AtomicBoolean signalled = new AtomicBoolean();
        AtomicBoolean returned = new AtomicBoolean();
        AtomicBoolean interruptedOnReturn = new AtomicBoolean();
        try (Workers workers = new Workers(lock)) {
            Thread waiter = workers.start(kind, "uninterruptible", () -> {
                lock.lock();
                try {
                    waiting.set(true);
                    while (!signalled.get()) {
                        c.awaitUninterruptibly();
                    }
                    returned.set(true);
                    interruptedOnReturn.set(Thread.currentThread().isInterrupted());
                    assertHeldByCurrentThread(lock, 1);
                } finally {
                    lock.unlock();
                }
            });
            awaitWaiting(lock, waiting);
            awaitParkedOrDone(waiter, Duration.ofMillis(200));
            waiter.interrupt();
            waiter.join(Duration.ofMillis(100));
            assertThat(returned).as("returned on an interrupt").isFalse();
            assertThat(awaitParkedOrDone(waiter, Duration.ofMillis(200)))
                    .as("parked again after the interrupt (no spin on the interrupt status)")
                    .isTrue();
            lock.lock();
            try {
                signalled.set(true);
                c.signal();
            } finally {
                lock.unlock();
            }
            workers.joinAll(PROMPT);
        }
        assertThat(returned).isTrue();
        assertThat(interruptedOnReturn).as("interrupt status kept").isTrue();
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void timedAwaitsTimeOutHoldingTheLock(ThreadKind kind) throws Exception {
        Lock lock = newLock();
        Condition c = newConditionOrSkip(lock);
        long timeoutMillis = 20;
        inThread(kind, "timed", () -> {
            lock.lock();
            try {
                long start = System.nanoTime();
                assertThat(c.awaitNanos(TimeUnit.MILLISECONDS.toNanos(timeoutMillis)))
                        .isLessThanOrEqualTo(0L);
                assertThat(System.nanoTime() - start)
                        .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
                assertHeldByCurrentThread(lock, 1);

                start = System.nanoTime();
                assertThat(c.await(timeoutMillis, TimeUnit.MILLISECONDS)).isFalse();
                assertThat(System.nanoTime() - start)
                        .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
                assertHeldByCurrentThread(lock, 1);

                Date deadline = new Date(System.currentTimeMillis() + timeoutMillis);
                assertThat(c.awaitUntil(deadline)).isFalse();
                assertThat(System.currentTimeMillis()).isGreaterThanOrEqualTo(deadline.getTime());
                assertHeldByCurrentThread(lock, 1);

                assertThat(c.awaitNanos(0L)).isLessThanOrEqualTo(0L);
                assertThat(c.awaitNanos(-1L)).isLessThanOrEqualTo(0L);
                assertThat(c.await(-1, TimeUnit.SECONDS)).isFalse();
                assertThat(c.awaitUntil(new Date(0L))).isFalse();
                assertHeldByCurrentThread(lock, 1);
            } finally {
                lock.unlock();
            }
        });
        assertLockUsableByTwoThreads(lock, kind);
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void signalWakesOneWaiterAndSignalAllWakesEvery(ThreadKind kind) throws Exception {
        Lock lock = newContendedLock();
        Condition c = newConditionOrSkip(lock);
        int waiters = 6;
        int[] enqueued = {0}; // guarded by the lock: counted just before each await
        int[] permits = {0}; // guarded by the lock
        AtomicInteger woken = new AtomicInteger();
        try (Workers workers = new Workers(lock)) {
            for (int i = 0; i < waiters; i++) {
                workers.start(kind, "waiter-" + i, () -> {
                    lock.lock();
                    try {
                        enqueued[0]++;
                        while (permits[0] == 0) {
                            c.await();
                        }
                        permits[0]--;
                        woken.incrementAndGet();
                        assertHeldByCurrentThread(lock, 1);
                    } finally {
                        lock.unlock();
                    }
                });
            }
            awaitEnqueued(lock, enqueued, waiters);
            lock.lock();
            try {
                permits[0] = 1;
                c.signal();
            } finally {
                lock.unlock();
            }
            long deadline = System.nanoTime() + PROMPT.toNanos();
            while (woken.get() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            Thread.sleep(50); // a second waiter woken by the one signal would be seen by now
            assertThat(woken).as("one signal, one waiter").hasValue(1);
            lock.lock();
            try {
                permits[0] = waiters - 1;
                c.signalAll();
            } finally {
                lock.unlock();
            }
            workers.joinAll(PROMPT);
        }
        assertThat(woken).hasValue(waiters);
    }

    /**
     * Signals racing timeouts and interrupts: waiters wait with short random bounds for tokens a
     * producer hands out one signal each; an interrupter interrupts them. Every token must be
     * taken (a signal that went to a waiter that gave up instead must pass to another), every
     * thread must finish, and the lock must be free at the end.
     */
    @Test
    void signalsRacingTimeoutsAndInterruptsLoseNoToken() throws Exception {
        Lock lock = newContendedLock();
        Condition c = newConditionOrSkip(lock);
        int tokensToHand = 2_000;
        int[] tokens = {0}; // guarded by the lock
        int[] taken = {0}; // guarded by the lock
        AtomicBoolean done = new AtomicBoolean();
        String context = lock + " seed " + SEED;
        List<Thread> waiters = new ArrayList<>();
        try (Workers workers = new Workers(context)) {
            int index = 0;
            for (ThreadKind kind : ThreadKind.values()) {
                for (int t = 0; t < 4; t++, index++) {
                    SplittableRandom random = new SplittableRandom(SEED + index);
                    waiters.add(workers.start(kind, "consumer-" + kind + "-" + t, () -> {
                        while (!done.get()) {
                            lock.lock();
                            try {
                                if (tokens[0] > 0) {
                                    tokens[0]--;
                                    taken[0]++;
                                    continue;
                                }
                                int pick = random.nextInt(3);
                                if (pick == 0) {
                                    c.awaitNanos(random.nextInt(200_000));
                                } else if (pick == 1) {
                                    c.await(random.nextInt(1_000), TimeUnit.MICROSECONDS);
                                } else {
                                    c.await(5, TimeUnit.MILLISECONDS);
                                }
                            } catch (InterruptedException e) {
                                // given up: the token, if any, is left for the next one
                            } finally {
                                lock.unlock();
                            }
                        }
                    }));
                }
            }
            SplittableRandom random = new SplittableRandom(SEED - 1);
            workers.start(ThreadKind.PLATFORM, "producer", () -> {
                for (int i = 0; i < tokensToHand; i++) {
                    lock.lock();
                    try {
                        tokens[0]++;
                        c.signal();
                    } finally {
                        lock.unlock();
                    }
                    if (i % 16 == 0) {
                        waiters.get(random.nextInt(waiters.size())).interrupt();
                        Thread.yield();
                    }
                }
                long deadline = System.nanoTime() + PROMPT.toNanos();
                while (System.nanoTime() < deadline) {
                    lock.lock();
                    try {
                        if (taken[0] == tokensToHand) {
                            break;
                        }
                    } finally {
                        lock.unlock();
                    }
                    Thread.sleep(1);
                }
                done.set(true);
                lock.lock();
                try {
                    c.signalAll();
                } finally {
                    lock.unlock();
                }
            });
            workers.joinAll(PROMPT.plus(PROMPT));
        }
        lock.lock();
        try {
            assertThat(taken[0]).as("tokens taken; %s", context).isEqualTo(tokensToHand);
            assertThat(tokens[0]).isZero();
        } finally {
            lock.unlock();
        }
        assertLockUsableByTwoThreads(lock, ThreadKind.VIRTUAL);
    }

    /** Waits (bounded) until {@code flag} is set and the lock is free: the waiter then waits on its condition. */
    private static void awaitWaiting(Lock lock, AtomicBoolean flag) throws InterruptedException {
        long deadline = System.nanoTime() + PROMPT.toNanos();
        while (System.nanoTime() < deadline) {
            if (flag.get() && lock.tryLock()) {
                lock.unlock(); // set under the lock before the await: a free lock means it released it to wait
                return;
            }
            Thread.sleep(1);
        }
        throw new AssertionError("waiter did not start waiting on " + lock);
    }

    /** Waits (bounded) until {@code count[0]}, read under the lock, reaches {@code n}. */
    private static void awaitEnqueued(Lock lock, int[] count, int n) throws InterruptedException {
        long deadline = System.nanoTime() + PROMPT.toNanos();
        while (System.nanoTime() < deadline) {
            lock.lock();
            try {
                if (count[0] == n) {
                    return;
                }
            } finally {
                lock.unlock();
            }
            Thread.sleep(1);
        }
        throw new AssertionError("waiters did not all start waiting on " + lock);
    }

    /** Checks, when the type has an owner view, that the caller holds {@code lock} {@code holds} times. */
    private void assertHeldByCurrentThread(Lock lock, int holds) {
        holdCounts().ifPresent(h -> {
            assertThat(h.holdCount(lock)).as("hold count").isEqualTo(holds);
            assertThat(h.isHeldByCurrentThread(lock)).isEqualTo(holds > 0);
        });
    }

    // ---------------------------------------------------------------- helpers

    /** Runs {@code body} in a new thread of {@code kind} and waits for it, rethrowing its failure. */
    protected static void inThread(ThreadKind kind, String name, ConcurrencySupport.Body body)
            throws InterruptedException {
        try (Workers workers = new Workers(name)) {
            workers.start(kind, name, body);
            workers.joinAll(PROMPT);
        }
    }

    /** Two threads take the lock in turn, the second one while the first holds it (so it waits). */
    protected static void assertLockUsableByTwoThreads(Lock lock, ThreadKind kind) throws InterruptedException {
        AtomicInteger turns = new AtomicInteger();
        try (Workers workers = new Workers(lock)) {
            Holder holder = hold(lock, kind, workers);
            workers.start(kind, "second", () -> {
                lock.lock();
                try {
                    turns.incrementAndGet();
                } finally {
                    lock.unlock();
                }
            });
            holder.release();
            workers.joinAll(PROMPT);
        }
        assertThat(turns).as("second thread acquired after the first released").hasValue(1);
    }
}
