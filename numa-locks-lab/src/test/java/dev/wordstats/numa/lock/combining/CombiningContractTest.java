package dev.wordstats.numa.lock.combining;

import static dev.wordstats.numa.lock.ConcurrencySupport.DURATION_MILLIS;
import static dev.wordstats.numa.lock.ConcurrencySupport.PROMPT;
import static dev.wordstats.numa.lock.ConcurrencySupport.SEED;
import static dev.wordstats.numa.lock.ConcurrencySupport.awaitParkedOrDone;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.lock.CombiningSettings;
import dev.wordstats.numa.lock.ConcurrencySupport;
import dev.wordstats.numa.lock.ConcurrencySupport.CriticalSection;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.lock.Guard;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What a combining {@link Guard} does beyond the plain contract: waiters' critical sections run on the
 * holder in FIFO batches bounded in count and time; results, exceptions and interrupts reach their own
 * callers; reentrant calls run inline even from a critical section combined for another thread; a
 * blocking critical section does not stop those served before it from returning. One subclass per class
 * (and node layout); every behaviour with virtual and with platform threads.
 *
 * <p>Most tests build a queue they know: a holder enters a critical section that waits on a latch, the
 * waiters start one by one, each only after the one before has parked, so their arrival order is known;
 * then the holder is let go and serves them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
abstract class CombiningContractTest {

    /** A guard under test whose callers all publish in one queue (one node). */
    protected abstract Guard newGuard(CombiningSettings settings);

    /** A guard under test for the stress tests: callers spread over its queues (nodes) where it has several. */
    protected abstract Guard newContendedGuard();

    /** Settings with a batch bound too large to matter for a queue of a few waiters. */
    static final CombiningSettings LARGE_BATCHES = new CombiningSettings(1_000, Duration.ofSeconds(30));

    // ------------------------------------------------------------------ stress

    /**
     * Each critical section returns the value of a plain counter it increments: the counter stays exact, no
     * two sections overlap, and the values each caller gets back are its own (strictly increasing per caller,
     * all values 1..n exactly once over all callers).
     */
    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void mutualExclusionKeepsAPlainCounterExact(ThreadKind kind) throws Exception {
        Guard guard = newContendedGuard();
        CriticalSection section = new CriticalSection();
        long[] counter = new long[1]; // plain on purpose: only the guard orders its read-modify-write
        int threads = kind.stressThreads();
        List<List<Long>> seen = new ArrayList<>();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DURATION_MILLIS);
        try (Workers workers = new Workers(guard + " seed " + SEED)) {
            for (int t = 0; t < threads; t++) {
                List<Long> mine = new ArrayList<>();
                seen.add(mine);
                int id = t;
                workers.start(kind, "caller-" + t, () -> {
                    while (System.nanoTime() < end) {
                        mine.add(guard.call(() -> {
                            section.enter(id % 8 == 0);
                            return ++counter[0];
                        }));
                    }
                });
            }
            workers.joinAll(PROMPT.plusMillis(DURATION_MILLIS));
        }
        assertThat(section.violations()).isEmpty();
        long total = seen.stream().mapToLong(List::size).sum();
        assertThat(counter[0]).isEqualTo(total).isEqualTo(section.counter());
        for (List<Long> mine : seen) {
            assertThat(mine)
                    .as("each caller's results are its own, in its order")
                    .isSorted();
        }
        assertThat(seen.stream().flatMap(List::stream).sorted().toList())
                .as("every result once")
                .isEqualTo(java.util.stream.LongStream.rangeClosed(1, total)
                        .boxed()
                        .toList());
    }

    /** Under contention, throwing critical sections deliver their own exceptions and leave the guard exact. */
    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void exceptionsUnderContentionReachTheirOwnCallers(ThreadKind kind) throws Exception {
        Guard guard = newContendedGuard();
        long[] counter = new long[1];
        int threads = kind.stressThreads();
        long[] calls = new long[threads];
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DURATION_MILLIS);
        try (Workers workers = new Workers(guard + " seed " + SEED)) {
            for (int t = 0; t < threads; t++) {
                int id = t;
                workers.start(kind, "caller-" + t, () -> {
                    long n = 0;
                    while (System.nanoTime() < end) {
                        long call = n++;
                        AtomicReference<Throwable> thrown = new AtomicReference<>();
                        try {
                            guard.run(() -> {
                                counter[0]++;
                                if (call % 3 == 1) {
                                    thrown.set(new Marked(id, call));
                                    throw (Marked) thrown.get();
                                } else if (call % 3 == 2) {
                                    thrown.set(new MarkedError(id, call));
                                    throw (MarkedError) thrown.get();
                                }
                            });
                            assertThat(call % 3)
                                    .as("no exception for a section that returned")
                                    .isZero();
                        } catch (Marked | MarkedError e) {
                            assertThat(e)
                                    .as("the exception of this caller's own section")
                                    .isSameAs(thrown.get());
                        }
                    }
                    calls[id] = n;
                });
            }
            workers.joinAll(PROMPT.plusMillis(DURATION_MILLIS));
        }
        assertThat(counter[0]).isEqualTo(java.util.Arrays.stream(calls).sum());
    }

    // ------------------------------------------------------------------ a known queue

    /** Critical sections queued behind a holder run on the holder, in arrival order. */
    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void waitersAreServedInArrivalOrder(ThreadKind kind) throws Exception {
        Guard guard = newGuard(LARGE_BATCHES);
        int waiters = 8;
        List<Integer> order = new ArrayList<>(); // written only under the guard
        Thread[] ranOn = new Thread[waiters];
        try (Workers workers = new Workers(guard)) {
            Holding holding = hold(guard, kind, workers);
            for (int i = 0; i < waiters; i++) {
                int id = i;
                queue(
                        workers,
                        kind,
                        "waiter-" + i,
                        () -> guard.run(() -> {
                            order.add(id);
                            ranOn[id] = Thread.currentThread();
                        }));
            }
            holding.release();
            workers.joinAll(PROMPT);
            assertThat(order)
                    .containsExactlyElementsOf(
                            IntStream.range(0, waiters).boxed().toList());
            assertThat(ranOn).as("combined by the holder").containsOnly(holding.thread);
        }
    }

    /**
     * A batch of queued critical sections, some returning, some throwing a RuntimeException, some an Error:
     * each caller gets its own outcome, the very object, and the sections after a throwing one still run.
     */
    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void resultsAndExceptionsReachTheirOwnCallersAndTheBatchGoesOn(ThreadKind kind) throws Exception {
        Guard guard = newGuard(LARGE_BATCHES);
        int waiters = 9;
        Object[] made = new Object[waiters];
        Object[] got = new Object[waiters];
        Thread[] ranOn = new Thread[waiters];
        try (Workers workers = new Workers(guard)) {
            Holding holding = hold(guard, kind, workers);
            for (int i = 0; i < waiters; i++) {
                int id = i;
                Supplier<Object> section = () -> {
                    ranOn[id] = Thread.currentThread();
                    switch (id % 3) {
                        case 0 -> {
                            made[id] = new Object();
                            return made[id];
                        }
                        case 1 -> {
                            made[id] = new IllegalStateException("section " + id);
                            throw (IllegalStateException) made[id];
                        }
                        default -> {
                            made[id] = new MarkedError(id, 0);
                            throw (MarkedError) made[id];
                        }
                    }
                };
                queue(workers, kind, "waiter-" + i, () -> {
                    try {
                        got[id] = guard.call(section);
                    } catch (IllegalStateException | MarkedError e) {
                        got[id] = e;
                    }
                });
            }
            holding.release();
            workers.joinAll(PROMPT);
            for (int i = 0; i < waiters; i++) {
                assertThat(got[i]).as("outcome of section %d", i).isNotNull().isSameAs(made[i]);
            }
            assertThat(ranOn)
                    .as("all combined by the holder, past the throwing ones")
                    .containsOnly(holding.thread);
        }
        assertThat(guard.call(() -> "usable")).isEqualTo("usable");
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void anUncontendedCallReturnsItsResultAndRethrowsItsExceptionUnchanged(ThreadKind kind) throws Exception {
        Guard guard = newGuard(CombiningSettings.DEFAULTS);
        try (Workers workers = new Workers(guard)) {
            workers.start(kind, "caller", () -> {
                assertThat(guard.call(() -> 42)).isEqualTo(42);
                IllegalArgumentException failure = new IllegalArgumentException("mine");
                assertThatThrownBy(() -> guard.call(() -> {
                            throw failure;
                        }))
                        .isSameAs(failure);
                StackOverflowError error = new StackOverflowError();
                assertThatThrownBy(() -> guard.run(() -> {
                            throw error;
                        }))
                        .isSameAs(error);
                assertThatThrownBy(() -> guard.call(null)).isInstanceOf(NullPointerException.class);
                assertThat(guard.call(() -> "still usable")).isEqualTo("still usable");
            });
            workers.joinAll(PROMPT);
        }
    }

    /** A call from inside a critical section runs inline, also several levels deep. */
    @Test
    void nestedCallsRunInline() {
        Guard guard = newGuard(CombiningSettings.DEFAULTS);
        Thread me = Thread.currentThread();
        int depth = guard.call(() -> guard.call(() -> guard.call(() -> {
            assertThat(Thread.currentThread()).isSameAs(me);
            return 3;
        })));
        assertThat(depth).isEqualTo(3);
        assertThat(guard.call(() -> "free again")).isEqualTo("free again");
    }

    /**
     * A waiter's critical section, run by the holder, calls the guard again: the nested call runs inline on
     * the holder (the combiner is the thread running critical sections, whoever they belong to).
     */
    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void aCombinedCriticalSectionOfAnotherThreadReentersInline(ThreadKind kind) throws Exception {
        Guard guard = newGuard(LARGE_BATCHES);
        Thread[] ranOn = new Thread[2];
        Object[] got = new Object[1];
        try (Workers workers = new Workers(guard)) {
            Holding holding = hold(guard, kind, workers);
            queue(
                    workers,
                    kind,
                    "reentering",
                    () -> got[0] = guard.call(() -> {
                        ranOn[0] = Thread.currentThread();
                        return guard.call(() -> {
                            ranOn[1] = Thread.currentThread();
                            return "nested";
                        });
                    }));
            holding.release();
            workers.joinAll(PROMPT);
            assertThat(got[0]).isEqualTo("nested");
            assertThat(ranOn).containsOnly(holding.thread);
        }
    }

    /** With a limit of 3, the holder serves three waiters and hands the role to the fourth, which serves three. */
    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void aBatchServesAtMostTheLimit(ThreadKind kind) throws Exception {
        Guard guard = newGuard(new CombiningSettings(3, Duration.ofSeconds(30)));
        int waiters = 8;
        Thread[] ranOn = new Thread[waiters];
        Thread[] callers = new Thread[waiters];
        List<Integer> order = new ArrayList<>();
        try (Workers workers = new Workers(guard)) {
            Holding holding = hold(guard, kind, workers);
            for (int i = 0; i < waiters; i++) {
                int id = i;
                callers[i] = queue(
                        workers,
                        kind,
                        "waiter-" + i,
                        () -> guard.run(() -> {
                            ranOn[id] = Thread.currentThread();
                            order.add(id);
                        }));
            }
            holding.release();
            workers.joinAll(PROMPT);
            assertThat(order)
                    .containsExactlyElementsOf(
                            IntStream.range(0, waiters).boxed().toList());
            Thread h = holding.thread;
            assertThat(ranOn)
                    .as("holder serves 0-2, waiter 3 combines 3 (its own) and 4-6, waiter 7 its own")
                    .containsExactly(h, h, h, callers[3], callers[3], callers[3], callers[3], callers[7]);
        }
    }

    /**
     * A critical section that runs past combineTime ends the batch: the holder hands its role to the next
     * waiter, which runs its own and the following sections, and the holder's own call returns.
     */
    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void aLongCriticalSectionEndsTheBatch(ThreadKind kind) throws Exception {
        Guard guard = newGuard(new CombiningSettings(1_000, Duration.ofMillis(20)));
        int waiters = 4;
        Thread[] ranOn = new Thread[waiters];
        Thread[] callers = new Thread[waiters];
        try (Workers workers = new Workers(guard)) {
            Holding holding = hold(guard, kind, workers);
            for (int i = 0; i < waiters; i++) {
                int id = i;
                callers[i] = queue(
                        workers,
                        kind,
                        "waiter-" + i,
                        () -> guard.run(() -> {
                            ranOn[id] = Thread.currentThread();
                            if (id == 0) {
                                sleep(60); // three times combineTime
                            }
                        }));
            }
            holding.release();
            workers.joinAll(PROMPT);
            Thread h = holding.thread;
            assertThat(ranOn).containsExactly(h, callers[1], callers[1], callers[1]);
        }
    }

    /**
     * A critical section that blocks (here: until the test lets it go) stalls those behind it, as any lock
     * would, but the callers served before it return meanwhile: their wake-up does not need the combiner.
     */
    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void aBlockingCriticalSectionDoesNotStopOthersFromFinishing(ThreadKind kind) throws Exception {
        Guard guard = newGuard(LARGE_BATCHES);
        int waiters = 6;
        int blocking = 3;
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch unblock = new CountDownLatch(1);
        Thread[] callers = new Thread[waiters];
        try (Workers workers = new Workers(guard)) {
            Holding holding = hold(guard, kind, workers);
            for (int i = 0; i < waiters; i++) {
                int id = i;
                callers[i] = queue(
                        workers,
                        kind,
                        "waiter-" + i,
                        () -> guard.run(() -> {
                            if (id == blocking) {
                                blocked.countDown();
                                awaitUninterruptibly(unblock);
                            }
                        }));
            }
            holding.release.countDown();
            assertThat(blocked.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            for (int i = 0; i < blocking; i++) {
                assertThat(callers[i].join(PROMPT)) // join's answer, not isAlive() (see Workers.joinAll)
                        .as("waiter %d, served before the blocking section, returned", i)
                        .isTrue();
            }
            assertThat(callers[waiters - 1].isAlive())
                    .as("a waiter behind the blocking section waits")
                    .isTrue();
            unblock.countDown();
            workers.joinAll(PROMPT);
        }
        assertThat(guard.call(() -> "usable")).isEqualTo("usable");
    }

    // ------------------------------------------------------------------ interrupts

    /** An interrupted waiter keeps waiting, is served, and returns with its interrupt still pending. */
    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void anInterruptedWaiterIsStillServedAndItsInterruptStaysPending(ThreadKind kind) throws Exception {
        Guard guard = newGuard(LARGE_BATCHES);
        boolean[] interruptedAfter = new boolean[1];
        Object[] got = new Object[1];
        try (Workers workers = new Workers(guard)) {
            Holding holding = hold(guard, kind, workers);
            Thread waiter = queue(workers, kind, "waiter", () -> {
                got[0] = guard.call(() -> "served");
                interruptedAfter[0] = Thread.currentThread().isInterrupted();
            });
            waiter.interrupt();
            assertThat(awaitParkedOrDone(waiter, PROMPT)).isTrue();
            assertThat(waiter.isAlive())
                    .as("an interrupt does not end the wait")
                    .isTrue();
            holding.release();
            workers.joinAll(PROMPT);
        }
        assertThat(got[0]).isEqualTo("served");
        assertThat(interruptedAfter[0]).isTrue();
    }

    /**
     * The holder's interrupt is not seen by the waiters' sections it runs and is pending again when its call
     * returns; an interrupt a combined section gives "its" thread reaches its caller, not the holder.
     */
    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void interruptsStayWithTheirOwnThreads(ThreadKind kind) throws Exception {
        Guard guard = newGuard(LARGE_BATCHES);
        boolean[] seenInside = new boolean[3];
        boolean[] interruptedAfter = new boolean[3];
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch inside = new CountDownLatch(1);
        AtomicBoolean holderInterruptedAfter = new AtomicBoolean();
        try (Workers workers = new Workers(guard)) {
            Thread holder = workers.start(kind, "holder", () -> {
                guard.run(() -> {
                    inside.countDown();
                    awaitUninterruptibly(release);
                    Thread.currentThread().interrupt(); // the holder is interrupted when it starts combining
                });
                holderInterruptedAfter.set(Thread.interrupted());
            });
            assertThat(inside.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            for (int i = 0; i < 3; i++) {
                int id = i;
                queue(workers, kind, "waiter-" + i, () -> {
                    guard.run(() -> {
                        seenInside[id] = Thread.currentThread().isInterrupted();
                        if (id == 1) {
                            Thread.currentThread().interrupt();
                        }
                    });
                    interruptedAfter[id] = Thread.currentThread().isInterrupted();
                });
            }
            release.countDown();
            workers.joinAll(PROMPT);
            assertThat(holder.isAlive()).isFalse();
        }
        assertThat(seenInside).as("no waiter's section saw an interrupt").containsExactly(false, false, false);
        assertThat(interruptedAfter)
                .as("only the caller whose section interrupted itself")
                .containsExactly(false, true, false);
        assertThat(holderInterruptedAfter)
                .as("the holder's own interrupt is pending again")
                .isTrue();
    }

    // ------------------------------------------------------------------ helpers

    /** A thread inside a critical section of the guard, waiting to be let go. */
    static final class Holding {
        final CountDownLatch inside = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        Thread thread;

        /** Lets the holder leave its critical section (it then serves the queue) and waits for it to return. */
        void release() throws InterruptedException {
            release.countDown();
            assertThat(thread.join(PROMPT)) // join's answer, not isAlive() (see Workers.joinAll)
                    .as("holder returned\n%s", ConcurrencySupport.dump(List.of(thread)))
                    .isTrue();
        }
    }

    static Holding hold(Guard guard, ThreadKind kind, Workers workers) throws InterruptedException {
        Holding holding = new Holding();
        holding.thread = workers.start(
                kind,
                "holder",
                () -> guard.run(() -> {
                    holding.inside.countDown();
                    awaitUninterruptibly(holding.release);
                }));
        assertThat(holding.inside.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS))
                .as("holder entered a free guard")
                .isTrue();
        return holding;
    }

    /** Starts a caller and returns once it waits (parked), so the next one queues behind it. */
    static Thread queue(Workers workers, ThreadKind kind, String name, ConcurrencySupport.Body body)
            throws InterruptedException {
        Thread thread = workers.start(kind, name, body);
        assertThat(awaitParkedOrDone(thread, PROMPT)).as("%s parked", name).isTrue();
        assertThat(thread.isAlive()).as("%s waits behind the holder", name).isTrue();
        return thread;
    }

    static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        long deadline = System.nanoTime() + PROMPT.toNanos();
        while (latch.getCount() > 0 && System.nanoTime() < deadline) {
            try {
                latch.await(10, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    static void sleep(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < deadline) {
            try {
                Thread.sleep(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                throw new AssertionError("interrupted", e);
            }
        }
    }

    /** A RuntimeException that names the call that threw it. */
    static final class Marked extends RuntimeException {
        Marked(int caller, long call) {
            super("caller " + caller + " call " + call);
        }
    }

    /** An Error that names the call that threw it. */
    static final class MarkedError extends Error {
        MarkedError(int caller, long call) {
            super("caller " + caller + " call " + call);
        }
    }
}
