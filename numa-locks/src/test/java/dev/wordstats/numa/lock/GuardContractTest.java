package dev.wordstats.numa.lock;

import static dev.wordstats.numa.lock.ConcurrencySupport.DURATION_MILLIS;
import static dev.wordstats.numa.lock.ConcurrencySupport.PROMPT;
import static dev.wordstats.numa.lock.ConcurrencySupport.SEED;
import static dev.wordstats.numa.lock.ConcurrencySupport.awaitParkedOrDone;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.lock.ConcurrencySupport.CriticalSection;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadIdNodes;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link Guard} contract, run for every {@link LockType} (the parameters come from
 * {@link TestLocks#types()}, so a new type is covered the day it is added; the types in the lab run in
 * numa-locks-lab, as every test tagged {@value TestLocks#EVERY_TYPE} does) with virtual and with
 * platform threads: mutual exclusion, results, exceptions and errors back to their callers,
 * reentrant calls inline, interrupts kept pending, nothing lost. One subclass per way of making a
 * guard ({@link BareGuardContractTest}, {@code probe.ProbedGuardContractTest}). Stress parts are
 * bounded by {@link ConcurrencySupport}'s properties; every wait on another thread is bounded by
 * {@link ConcurrencySupport#PROMPT}, and a thread still running then fails the test with a dump.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag(TestLocks.EVERY_TYPE)
public abstract class GuardContractTest {

    /** A new guard of {@code type}, locating nodes with {@code nodes}. */
    protected abstract Guard newGuard(LockType type, NodeLocator nodes);

    /**
     * Called after a load of exactly {@code outermostCalls} outermost calls on {@code guard}
     * (whatever they returned or threw), with every caller done: a subclass checks what it counts.
     */
    protected void afterLoad(Guard guard, long outermostCalls) {}

    static Stream<LockType> types() {
        return TestLocks.types();
    }

    static Stream<Arguments> typesAndKinds() {
        return types().flatMap(type -> Arrays.stream(ThreadKind.values()).map(kind -> Arguments.of(type, kind)));
    }

    /** Contended tests spread threads over two simulated nodes, so NUMA-aware types hand over across nodes. */
    protected Guard newContendedGuard(LockType type) {
        return newGuard(type, new ThreadIdNodes(2));
    }

    // ---------------------------------------------------------------- mutual exclusion

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("typesAndKinds")
    void mutualExclusionKeepsNonAtomicCounterExact(LockType type, ThreadKind kind) throws Exception {
        Guard guard = newContendedGuard(type);
        CriticalSection section = new CriticalSection();
        LongAdder calls = new LongAdder();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DURATION_MILLIS);
        try (Workers workers = new Workers(guard)) {
            for (int t = 0; t < kind.stressThreads(); t++) {
                int index = t;
                workers.start(kind, "contender-" + t, () -> {
                    long mine = 0;
                    while (System.nanoTime() < end) {
                        boolean yieldInside = (mine + index) % 16 == 0;
                        guard.run(() -> section.enter(yieldInside));
                        mine++;
                    }
                    calls.add(mine);
                });
            }
            workers.joinAll(Duration.ofMillis(DURATION_MILLIS).plus(PROMPT));
        }
        assertThat(section.violations())
                .as("critical sections seen overlapping")
                .isEmpty();
        assertThat(section.counter())
                .as("non-atomic counter after %d calls", calls.sum())
                .isEqualTo(calls.sum())
                .isPositive();
        afterLoad(guard, calls.sum());
    }

    // ---------------------------------------------------------------- results and exceptions

    /**
     * Callers mix plain calls, runs, calls whose critical section throws a RuntimeException or an
     * Error, and reentrant calls: each caller gets exactly its own result or its own throwable (the
     * same instance), every critical section runs once, and the guard stays usable throughout.
     */
    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("typesAndKinds")
    void resultsExceptionsAndErrorsReachTheirCallers(LockType type, ThreadKind kind) throws Exception {
        Guard guard = newContendedGuard(type);
        long[] tickets = {0}; // plain on purpose: written only inside critical sections
        ConcurrentLinkedQueue<Long> issued = new ConcurrentLinkedQueue<>();
        LongAdder calls = new LongAdder();
        LongAdder thrown = new LongAdder();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DURATION_MILLIS);
        try (Workers workers = new Workers(guard + " seed " + SEED)) {
            for (int t = 0; t < kind.stressThreads(); t++) {
                int caller = t;
                SplittableRandom random = new SplittableRandom(SEED + t);
                workers.start(kind, "caller-" + t, () -> {
                    for (long seq = 0; System.nanoTime() < end; seq++) {
                        long mySeq = seq;
                        int pick = random.nextInt(10);
                        calls.increment();
                        switch (pick) {
                            case 0 -> {
                                RuntimeException mine = new IllegalStateException(caller + "/" + mySeq);
                                assertThatThrownBy(() -> guard.run(() -> {
                                            issued.add(++tickets[0]);
                                            throw mine;
                                        }))
                                        .isSameAs(mine);
                                thrown.increment();
                            }
                            case 1 -> {
                                Error mine = new CriticalSectionError(caller + "/" + mySeq);
                                assertThatThrownBy(() -> guard.call(() -> {
                                            issued.add(++tickets[0]);
                                            throw mine;
                                        }))
                                        .isSameAs(mine);
                                thrown.increment();
                            }
                            case 2 -> {
                                Reply reply =
                                        guard.call(() -> guard.call(() -> new Reply(caller, mySeq, ++tickets[0])));
                                check(reply, caller, mySeq, issued);
                            }
                            case 3 -> {
                                Reply[] box = new Reply[1];
                                guard.run(() -> box[0] = new Reply(caller, mySeq, ++tickets[0]));
                                check(box[0], caller, mySeq, issued);
                            }
                            default ->
                                check(guard.call(() -> new Reply(caller, mySeq, ++tickets[0])), caller, mySeq, issued);
                        }
                    }
                });
            }
            workers.joinAll(Duration.ofMillis(DURATION_MILLIS).plus(PROMPT));
        }
        long n = calls.sum();
        assertThat(n).isPositive();
        assertThat(thrown.sum()).as("critical sections that threw").isPositive();
        long last = guard.call(() -> tickets[0]);
        assertThat(last).as("critical sections run, once each").isEqualTo(n);
        Set<Long> distinct = new HashSet<>(issued);
        assertThat(distinct).as("every ticket seen by its caller, once").hasSize((int) n);
        assertThat(distinct).allMatch(ticket -> ticket >= 1 && ticket <= n);
        afterLoad(guard, n + 1);
    }

    private static void check(Reply reply, int caller, long seq, ConcurrentLinkedQueue<Long> issued) {
        assertThat(reply.caller())
                .as("result of caller %d, call %d", caller, seq)
                .isEqualTo(caller);
        assertThat(reply.seq()).as("result of caller %d, call %d", caller, seq).isEqualTo(seq);
        issued.add(reply.ticket());
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("typesAndKinds")
    void resultAndThrowableReachTheCallerUnchangedAndLeaveTheGuardUsable(LockType type, ThreadKind kind)
            throws Exception {
        Guard guard = newGuard(type, NodeLocator.singleNode());
        inThread(kind, "caller", () -> {
            Object result = new Object();
            assertThat(guard.call(() -> result)).isSameAs(result);
            assertThat(guard.<Object>call(() -> null)).isNull();
            AtomicInteger runs = new AtomicInteger();
            guard.run(runs::incrementAndGet);
            assertThat(runs).as("run runs its section once").hasValue(1);
            RuntimeException exception = new UnsupportedOperationException("from the critical section");
            assertThatThrownBy(() -> guard.run(() -> {
                        throw exception;
                    }))
                    .isSameAs(exception);
            Error error = new CriticalSectionError("from the critical section");
            assertThatThrownBy(() -> guard.call(() -> {
                        throw error;
                    }))
                    .isSameAs(error);
            assertThat(guard.call(() -> 42)).as("usable after both").isEqualTo(42);
        });
        assertGuardUsableByTwoThreads(guard, kind);
    }

    // ---------------------------------------------------------------- reentrancy

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("typesAndKinds")
    void reentrantCallRunsInlineOnTheSameThread(LockType type, ThreadKind kind) throws Exception {
        Guard guard = newGuard(type, NodeLocator.singleNode());
        inThread(kind, "caller", () -> {
            List<Thread> runners = new ArrayList<>();
            int result = guard.call(() -> {
                runners.add(Thread.currentThread());
                int inner = guard.call(() -> {
                    runners.add(Thread.currentThread());
                    guard.run(() -> runners.add(Thread.currentThread()));
                    return 2;
                });
                RuntimeException nested = new IllegalStateException("nested");
                assertThatThrownBy(() -> guard.run(() -> {
                            throw nested;
                        }))
                        .as("an exception of a nested section reaches the outer one")
                        .isSameAs(nested);
                return inner + 1;
            });
            assertThat(result).isEqualTo(3);
            assertThat(runners).hasSize(3);
            assertThat(Set.copyOf(runners))
                    .as("nested sections ran on the thread of the outer one")
                    .hasSize(1);
        });
        assertGuardUsableByTwoThreads(guard, kind);
    }

    // ---------------------------------------------------------------- interrupts

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("typesAndKinds")
    void interruptStaysPendingAndDoesNotBreakTheCall(LockType type, ThreadKind kind) throws Exception {
        Guard guard = newContendedGuard(type);
        inThread(kind, "interrupted", () -> {
            Thread.currentThread().interrupt();
            assertThat(guard.call(() -> 7))
                    .as("call on a free guard, interrupt pending")
                    .isEqualTo(7);
            assertThat(Thread.interrupted()).as("status kept across the call").isTrue();
        });
        AtomicBoolean ran = new AtomicBoolean();
        AtomicBoolean interruptedAfter = new AtomicBoolean();
        try (Workers workers = new Workers(guard)) {
            GuardHolder holder = hold(guard, kind, workers);
            Thread waiter = workers.start(kind, "waiter", () -> {
                int result = guard.call(() -> {
                    ran.set(true);
                    return 5;
                });
                assertThat(result).isEqualTo(5);
                interruptedAfter.set(Thread.currentThread().isInterrupted());
            });
            awaitParkedOrDone(waiter, Duration.ofMillis(200));
            waiter.interrupt();
            boolean returned = waiter.join(Duration.ofMillis(100));
            assertThat(ran).as("critical section ran while the guard was held").isFalse();
            assertThat(returned).as("call still waiting after the interrupt").isFalse();
            holder.release();
            waiter.join(PROMPT);
            assertThat(ran).as("critical section ran once the holder left").isTrue();
            assertThat(interruptedAfter)
                    .as("interrupt status kept across the call")
                    .isTrue();
            workers.joinAll(PROMPT);
        }
        assertGuardUsableByTwoThreads(guard, kind);
    }

    // ---------------------------------------------------------------- nothing lost

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("typesAndKinds")
    void everyCallerBlockedBehindAHolderFinishesOnceItLeaves(LockType type, ThreadKind kind) throws Exception {
        int waiters = 4 * kind.stressThreads();
        Guard guard = newContendedGuard(type);
        CriticalSection section = new CriticalSection();
        try (Workers workers = new Workers(guard)) {
            GuardHolder holder = hold(guard, kind, workers);
            List<Thread> started = new ArrayList<>();
            for (int w = 0; w < waiters; w++) {
                boolean yieldInside = w % 3 == 0;
                started.add(workers.start(kind, "waiter-" + w, () -> guard.run(() -> section.enter(yieldInside))));
            }
            // Let them queue behind the holder: bounded in total, well within the holder's PROMPT.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            for (Thread thread : started) {
                awaitParkedOrDone(thread, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            }
            assertThat(section.counter())
                    .as("sections run while the holder is inside")
                    .isZero();
            holder.release();
            workers.joinAll(PROMPT);
        }
        assertThat(section.violations()).isEmpty();
        assertThat(section.counter()).as("sections run").isEqualTo(waiters);
        afterLoad(guard, waiters + 1);
    }

    // ---------------------------------------------------------------- helpers

    /** What a critical section of the stress test returns: who asked, and its ticket. */
    record Reply(int caller, long seq, long ticket) {}

    /** An Error thrown by a critical section on purpose. */
    static final class CriticalSectionError extends Error {
        CriticalSectionError(String message) {
            super(message);
        }
    }

    /** Runs {@code body} in a new thread of {@code kind} and waits for it, rethrowing its failure. */
    public static void inThread(ThreadKind kind, String name, ConcurrencySupport.Body body)
            throws InterruptedException {
        try (Workers workers = new Workers(name)) {
            workers.start(kind, name, body);
            workers.joinAll(PROMPT);
        }
    }

    /** Starts a thread of {@code kind} whose critical section stays inside {@code guard} until released. */
    public static GuardHolder hold(Guard guard, ThreadKind kind, Workers workers) throws InterruptedException {
        GuardHolder holder = new GuardHolder();
        holder.thread = workers.start(
                kind,
                "holder",
                () -> guard.run(() -> {
                    holder.entered.countDown();
                    try {
                        if (!holder.release.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)) {
                            throw new AssertionError("holder never released");
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt(); // the test is being torn down: leave
                    }
                }));
        if (!holder.entered.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("holder did not enter a free guard");
        }
        return holder;
    }

    /** A thread inside a critical section until released. */
    public static final class GuardHolder {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        Thread thread;

        /** Lets the holder's critical section end and waits until its call has returned. */
        public void release() throws InterruptedException {
            release.countDown();
            if (!thread.join(PROMPT)) { // join's answer, not isAlive() (see Workers.joinAll)
                throw new AssertionError("holder did not leave\n" + ConcurrencySupport.dump(List.of(thread)));
            }
        }
    }

    /** One thread holds the guard while a second calls it (so it waits), then the second gets in. */
    protected static void assertGuardUsableByTwoThreads(Guard guard, ThreadKind kind) throws InterruptedException {
        AtomicReference<Integer> second = new AtomicReference<>();
        try (Workers workers = new Workers(guard)) {
            GuardHolder holder = hold(guard, kind, workers);
            workers.start(kind, "second", () -> second.set(guard.call(() -> 2)));
            holder.release();
            workers.joinAll(PROMPT);
        }
        assertThat(second).as("second caller got in after the first left").hasValue(2);
    }
}
