package dev.wordstats.numa.lock.queue;

import static dev.wordstats.numa.lock.ConcurrencySupport.PROMPT;
import static dev.wordstats.numa.lock.ConcurrencySupport.awaitParkedOrDone;
import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.ConcurrencySupport;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.GuardContractTest;
import dev.wordstats.numa.lock.MonitorLockSettings;
import dev.wordstats.numa.lock.MonitorLockSettings.Adaptation;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.topology.NodeLocator;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;

/**
 * {@link NumaMonitorLock}'s own behaviour: when it turns queued and lean again, reentrancy across a
 * switch, mutual exclusion while it switches, and its size. The {@link Guard} contract is checked for
 * every type by {@code BareGuardContractTest} and {@code ProbedGuardContractTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NumaMonitorLockTest {

    /**
     * Every acquisition sampled and a window of its own, every window saturated, a caller's wait judged once 4
     * overtook it; turns of at least 64 releases, probations of 64.
     */
    private static final Adaptation COUNTED = adaptation(1, 4, 1, 0, 64);

    /**
     * Every acquisition sampled, every window of one sample saturated, every lean call that another overtook
     * has waited long enough with a bound of 0, and every queued release may turn it lean (a turn of one
     * release at least; a probation of one, never measured busy): switches at every chance.
     */
    private static final Adaptation EAGER = adaptation(1, 1, 1, 0, 1);

    /** A bound no test waits: only the overtakes decide. */
    private static final Duration NO_BOUND = Duration.ZERO;

    /** A bound no test reaches. */
    private static final Duration HOUR = Duration.ofHours(1);

    /**
     * An adaptation of the given values, the default busy share, and no word (lean from the start): a test's
     * switches then do not wait for two of its threads to meet first.
     */
    private static Adaptation adaptation(
            int sampleEvery, int judgeAfter, int windowSamples, int saturatedPercent, int firstProbation) {
        return new Adaptation(
                sampleEvery,
                judgeAfter,
                windowSamples,
                saturatedPercent,
                firstProbation,
                Adaptation.DEFAULTS.busyPercent(),
                false);
    }

    /** {@code a} with {@code percent} as the saturated share. */
    private static Adaptation withSaturatedPercent(Adaptation a, int percent) {
        return new Adaptation(
                a.sampleEvery(),
                a.judgeAfter(),
                a.windowSamples(),
                percent,
                a.firstProbation(),
                a.busyPercent(),
                a.startAsWord());
    }

    /**
     * {@code a} with {@code percent} as a busy probation's share. At 0 every measured probation is busy and
     * doubles, so a queued lock that turns lean after its first releases was in a turn of the waiting callers.
     */
    private static Adaptation withBusyPercent(Adaptation a, int percent) {
        return new Adaptation(
                a.sampleEvery(),
                a.judgeAfter(),
                a.windowSamples(),
                a.saturatedPercent(),
                a.firstProbation(),
                percent,
                a.startAsWord());
    }

    private static NumaMonitorLock lock(Adaptation adaptation) {
        return lock(adaptation, NO_BOUND, LockProbe.NONE);
    }

    private static NumaMonitorLock lock(Adaptation adaptation, LockProbe probe) {
        return lock(adaptation, NO_BOUND, probe);
    }

    private static NumaMonitorLock lock(Adaptation adaptation, Duration bound, LockProbe probe) {
        return new NumaMonitorLock(
                TestLocks.context(NodeLocator.singleNode()),
                NumaMcsLock.DEFAULT_RESERVE_AFTER,
                new MonitorLockSettings(bound, adaptation),
                probe);
    }

    @Test
    void theAdaptationDefaultsAreTheLocksConstants() {
        assertThat(MonitorLockSettings.DEFAULTS.adaptation())
                .isEqualTo(Adaptation.DEFAULTS)
                .isEqualTo(new Adaptation(
                        NumaMonitorLock.EPOCH_SAMPLE + 1,
                        NumaMonitorLock.STARVING_EPOCHS,
                        NumaMonitorLock.WINDOW_SAMPLES,
                        NumaMonitorLock.SATURATED_PERCENT,
                        NumaMonitorLock.PROBATION,
                        NumaMonitorLock.BUSY_PERCENT,
                        true));
    }

    /** The queued mode of a lock made with {@code adaptation}, on its own, for the turns' bookkeeping. */
    private static NumaMonitorLock.QueuedMode queuedMode(Adaptation adaptation) {
        return new NumaMonitorLock.QueuedMode(
                new NumaHandoffLock(NodeLocator.singleNode(), NumaMcsLock.DEFAULT_RESERVE_AFTER, 2), adaptation);
    }

    /**
     * Idle calls on {@code guard} (see idleCalls) from one thread of {@code kind}, one at a time, while it is
     * queued and fewer than {@code most} were made: how many it took to turn it lean (or {@code most}).
     */
    private static int releasesUntilLean(NumaMonitorLock guard, ThreadKind kind, int most) throws InterruptedException {
        AtomicInteger calls = new AtomicInteger();
        GuardContractTest.inThread(kind, "caller", () -> {
            while (guard.isQueued() && calls.get() < most) {
                idleCalls(guard, 1, calls);
            }
        });
        return calls.get();
    }

    /** The state of {@code guard}. */
    private static NumaMonitorLock.State state(NumaMonitorLock guard) throws ReflectiveOperationException {
        return (NumaMonitorLock.State) privateField(guard, "state");
    }

    /** A runnable that makes {@code guard}'s votes say its threads come straight back (a hot lock). */
    private static Runnable straightBack(NumaMonitorLock guard) throws ReflectiveOperationException {
        NumaMonitorLock.State state = state(guard);
        return () -> state.outsideVotes = (byte) -NumaMonitorLock.OUTSIDE_VOTES;
    }

    /** A timed probe that hears every acquisition, as the service's: it counts what it is told, allocating nothing. */
    private static final class TimedProbe implements LockProbe {
        final AtomicLong acquired = new AtomicLong();
        final AtomicLong released = new AtomicLong();
        final AtomicLong switches = new AtomicLong();
        final List<String> turnedQueuedBy = new CopyOnWriteArrayList<>();

        @Override
        public boolean timed() {
            return true;
        }

        @Override
        public void acquired(boolean waited, long waitNanos) {
            acquired.incrementAndGet();
        }

        @Override
        public void released(boolean waited, long waitNanos, long holdNanos) {
            released.incrementAndGet();
        }

        @Override
        public void modeSwitched(boolean queued) {
            if (queued) {
                turnedQueuedBy.add(Thread.currentThread().getName());
            }
            switches.incrementAndGet();
        }
    }

    /**
     * A holder enters; a waiter arrives and waits in the monitor; the holder makes {@code nested} calls
     * inside its section (each a sampled acquisition), then leaves, its own release sampled too: the
     * waiter was overtaken {@code nested + 1} times when it gets in.
     */
    private static void overtake(NumaMonitorLock guard, ThreadKind kind, int nested) throws InterruptedException {
        overtake(guard, kind, nested, () -> {});
    }

    /** As the overtake above, the holder running {@code lastly} after its nested calls. */
    private static void overtake(NumaMonitorLock guard, ThreadKind kind, int nested, Runnable lastly)
            throws InterruptedException {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        try (Workers workers = new Workers(guard)) {
            workers.start(
                    kind,
                    "holder",
                    () -> guard.run(() -> {
                        entered.countDown();
                        await(go);
                        for (int i = 0; i < nested; i++) {
                            guard.run(() -> {});
                        }
                        lastly.run();
                    }));
            assertThat(entered.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            Thread waiter = workers.start(kind, "waiter", () -> guard.run(() -> {}));
            assertThat(awaitParkedOrDone(waiter, PROMPT)).isTrue();
            assertThat(waiter.getState()).as("the waiter waits for the holder").isNotEqualTo(Thread.State.TERMINATED);
            go.countDown();
            workers.joinAll(PROMPT);
        }
    }

    /** Until {@code deadline}, and past it until {@code guard} switched once or {@code latest} passed. */
    private static boolean running(long deadline, long latest, NumaMonitorLock guard) {
        long now = System.nanoTime();
        return now < deadline || guard.modeSwitches() == 0 && now < latest;
    }

    private static void spin(long nanos) {
        long until = System.nanoTime() + nanos;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("not released");
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aCallerThatWaitedTheBoundTurnsTheLockQueued(ThreadKind kind) throws Exception {
        // The holder keeps the waiter waiting well past the bound, then its nested calls overtake it 4 times,
        // each sampled, so the samples since the waiter's arrival span the wait.
        // Every probation busy: a probation would double and stay queued; a turn ends after its releases.
        Duration bound = Duration.ofMillis(300);
        NumaMonitorLock waited = lock(withBusyPercent(COUNTED, 0), bound, LockProbe.NONE);
        overtake(waited, kind, 0, () -> {});
        assertThat(waited.isQueued())
                .as("overtaken once: its wait is not judged")
                .isFalse();
        NumaMonitorLock.State state = state(waited);
        overtake(waited, kind, 3, () -> {
            LockSupport.parkNanos(bound.toNanos() * 2);
            state.outsideVotes = (byte) NumaMonitorLock.OUTSIDE_VOTES; // its threads work outside it
        });
        assertThat(waited.isQueued())
                .as("waited twice the bound, overtaken 4 times")
                .isTrue();
        assertThat(waited.modeSwitches()).isEqualTo(1);
        assertThat(releasesUntilLean(waited, kind, 4 * 64))
                .as("its threads work outside it: a turn of the waiting callers, lean after its first releases")
                .isEqualTo(64);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aCallerOvertakenForLessThanTheBoundKeepsTheLockLean(ThreadKind kind) throws Exception {
        NumaMonitorLock bounded = lock(COUNTED, HOUR, LockProbe.NONE);
        overtake(bounded, kind, 20); // overtaken 21 times, for far less than an hour
        assertThat(bounded.isQueued())
                .as("overtaken often, for less than the bound")
                .isFalse();
        assertThat(bounded.modeSwitches()).isZero();

        NumaMonitorLock served = lock(COUNTED);
        overtake(served, kind, 2); // overtaken 3 times: the bound of 0 is never judged
        assertThat(served.isQueued())
                .as("overtaken fewer times than the epochs a judgement needs")
                .isFalse();
        assertThat(served.modeSwitches()).isZero();

        NumaMonitorLock starved = lock(COUNTED);
        overtake(starved, kind, 3); // overtaken 4 times, a bound of 0
        assertThat(starved.isQueued())
                .as("overtaken as often as a judgement needs")
                .isTrue();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void anUnsampledCallThatWaitedTheBoundTurnsTheLockQueued(ThreadKind kind) throws Exception {
        // Practically no call sampled (one in 2^30), so the calls take the unsampled path; inside its section
        // the caller stands in for the samples others took while it waited (the monitor's holder writes them).
        Adaptation unsampled = adaptation(1 << 30, 4, 1, 0, 64);
        Duration bound = Duration.ofSeconds(1);
        NumaMonitorLock waited = lock(unsampled, bound, LockProbe.NONE);
        NumaMonitorLock waitedLess = lock(unsampled, bound, LockProbe.NONE);
        NumaMonitorLock overtakenLess = lock(unsampled, bound, LockProbe.NONE);
        for (NumaMonitorLock guard : List.of(waited, waitedLess, overtakenLess)) {
            NumaMonitorLock.State state = state(guard);
            long span = guard == waitedLess ? bound.toNanos() / 2 : bound.toNanos();
            int epochs = guard == overtakenLess ? 3 : 4;
            GuardContractTest.inThread(
                    kind,
                    "caller",
                    () -> guard.run(() -> {
                        state.epoch += epochs;
                        state.sampledAt += span;
                    }));
        }
        assertThat(waited.isQueued()).as("samples spanning the bound, 4 epochs").isTrue();
        assertThat(waited.modeSwitches()).isEqualTo(1);
        assertThat(waitedLess.isQueued()).as("samples spanning half the bound").isFalse();
        assertThat(overtakenLess.isQueued()).as("3 epochs: not judged").isFalse();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aProbedCallerThatWaitedTheBoundTurnsTheLockQueued(ThreadKind kind) throws Exception {
        // Nothing sampled, no overtake: a probe that clocks the wait gives the wait itself.
        Adaptation unsampled = adaptation(1 << 30, 4, 1, 0, 64);
        Duration bound = Duration.ofMillis(200);
        NumaMonitorLock waited = lock(unsampled, bound, new TimedProbe());
        NumaMonitorLock bounded = lock(unsampled, HOUR, new TimedProbe());
        for (NumaMonitorLock guard : List.of(waited, bounded)) {
            overtake(guard, kind, 0, () -> LockSupport.parkNanos(bound.toNanos() * 2));
        }
        assertThat(waited.isQueued()).as("waited twice the bound").isTrue();
        assertThat(bounded.isQueued()).as("waited less than the bound").isFalse();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void theHolderTurnsTheLockQueuedForAnAnnouncedWaiterThatWaitedTheBound(ThreadKind kind) throws Exception {
        // The waiter arrives while the holder's section runs and announces itself; the holder's section lasts
        // twice the bound, so at its release the waiter, still waiting, has waited the bound: the holder turns
        // the lock queued, not the waiter once it gets in. With a bound no wait reaches nobody does.
        Adaptation unsampled = adaptation(1 << 30, 4, 1, 0, 64);
        Duration bound = Duration.ofMillis(100);
        TimedProbe probe = new TimedProbe();
        NumaMonitorLock waited = lock(unsampled, bound, probe);
        overtake(waited, kind, 0, () -> LockSupport.parkNanos(bound.toNanos() * 2));
        assertThat(waited.isQueued()).as("the waiter waited the bound").isTrue();
        assertThat(probe.turnedQueuedBy)
                .as("turned queued by the holder's release")
                .containsExactly("holder");
        TimedProbe calm = new TimedProbe();
        NumaMonitorLock bounded = lock(unsampled, HOUR, calm);
        overtake(bounded, kind, 0, () -> LockSupport.parkNanos(bound.toNanos() * 2));
        assertThat(bounded.isQueued()).as("no wait reached the bound").isFalse();
        assertThat(calm.turnedQueuedBy).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void probedCallersThatFindASectionRunningWaitInTheQueueLockAndRunInTheirOrder(ThreadKind kind) throws Exception {
        // A holder in a probed lean section; five callers arrive one after another while it runs (each parked
        // before the next starts). The first takes the queue lock and waits for the monitor; the others wait in
        // the queue lock, not in the monitor's entry list, so once the holder leaves they run in their order of
        // arrival, each in the monitor, and the lock, with a bound no wait reaches, stays lean.
        Adaptation unsampled = adaptation(1 << 30, 4, 1, 0, 64);
        NumaMonitorLock guard = lock(unsampled, HOUR, new TimedProbe());
        Object monitor = privateField(guard, "monitor");
        CountDownLatch in = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        List<String> order = new CopyOnWriteArrayList<>();
        try (Workers workers = new Workers(guard)) {
            workers.start(
                    kind,
                    "holder",
                    () -> guard.run(() -> {
                        in.countDown();
                        await(leave);
                    }));
            assertThat(in.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            for (int i = 0; i < 5; i++) {
                String name = "caller-" + i;
                Thread caller = workers.start(
                        kind,
                        name,
                        () -> guard.run(
                                () -> order.add(name + (Thread.holdsLock(monitor) ? " in the monitor" : " outside"))));
                assertThat(awaitParkedOrDone(caller, PROMPT)).isTrue();
                if (i == 0) {
                    assertThat(caller.getState())
                            .as("the first holds the queue lock and waits for the monitor")
                            .isEqualTo(Thread.State.BLOCKED);
                } else {
                    assertThat(caller.getState())
                            .as("%s parks in the queue lock, not BLOCKED on the monitor", name)
                            .isIn(Thread.State.WAITING, Thread.State.TIMED_WAITING);
                }
            }
            assertThat(order).as("every caller waits for the holder").isEmpty();
            leave.countDown();
            workers.joinAll(PROMPT);
        }
        assertThat(order)
                .containsExactly(
                        "caller-0 in the monitor",
                        "caller-1 in the monitor",
                        "caller-2 in the monitor",
                        "caller-3 in the monitor",
                        "caller-4 in the monitor");
        assertThat(guard.isQueued()).as("no wait reached the bound").isFalse();
        assertThat(guard.modeSwitches()).isZero();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aLockThatIsNotSaturatedTurnsQueuedForATurnNotAProbation(ThreadKind kind) throws Exception {
        // Windows are never saturated at a share above 100%: the holds of a window never fill more than its span.
        // Every probation busy: a probation would double and stay queued; a turn ends after its releases.
        NumaMonitorLock guard = lock(withBusyPercent(withSaturatedPercent(COUNTED, 101), 0));
        overtake(guard, kind, 3, straightBack(guard)); // waited the bound of 0, its threads straight back
        assertThat(guard.isQueued()).as("waited the bound").isTrue();
        assertThat(releasesUntilLean(guard, kind, 4 * 64))
                .as("not saturated: a turn of the waiting callers, lean after its first releases")
                .isEqualTo(64);
    }

    @Test
    void aTurnOfTheWaitingCallersEndsOnceTheStragglersAreServed() {
        NumaMonitorLock.QueuedMode mode = queuedMode(adaptation(1, 4, 1, 0, 4));
        mode.startTurn(Long.MAX_VALUE, false);
        assertThat(mode.waiting).isTrue();
        mode.straggled(); // two callers found the lock queued in the monitor
        mode.straggled();
        for (int i = 0; i < 3; i++) {
            assertThat(mode.released(0L, false, false))
                    .as("the turn's first releases")
                    .isFalse();
        }
        assertThat(mode.released(0L, false, false))
                .as("two stragglers not served")
                .isFalse();
        mode.served();
        assertThat(mode.released(0L, true, false))
                .as("a straggler's own release")
                .isFalse();
        assertThat(mode.released(0L, false, false)).as("one straggler left").isFalse();
        mode.served();
        assertThat(mode.released(0L, true, false))
                .as("the last straggler's own release")
                .isFalse();
        assertThat(mode.stragglers()).isZero();
        assertThat(mode.released(0L, false, false))
                .as("a caller that queued after the switch, no straggler left")
                .isTrue();

        mode.startTurn(Long.MAX_VALUE, true);
        assertThat(mode.waiting).as("a probation").isFalse();
        assertThat(mode.turn).isEqualTo(4);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aTurnGoesOnWhileItsOwnersWaitedTheBoundAndACallerWaitsBehind(ThreadKind kind) throws Exception {
        NumaMonitorLock.QueuedMode mode = queuedMode(adaptation(1, 4, 1, 0, 2));
        mode.startTurn(Long.MAX_VALUE, false);
        assertThat(mode.released(0L, false, false))
                .as("the turn's first release")
                .isFalse();
        mode.lock.lock(); // this thread owns the queue lock; a caller waits for it behind
        try (Workers workers = new Workers(mode.lock)) {
            Thread behind = workers.start(kind, "behind", () -> {
                mode.lockCounted();
                mode.lock.unlock();
            });
            assertThat(awaitParkedOrDone(behind, PROMPT)).isTrue();
            assertThat(mode.hasWaiters()).as("counted while it waits").isTrue();
            for (int i = 0; i < 3; i++) {
                assertThat(mode.released(0L, false, true))
                        .as("a release whose owner waited the bound in the queue, a caller waiting behind")
                        .isFalse();
            }
            mode.lock.unlock();
            workers.joinAll(PROMPT);
        }
        assertThat(mode.hasWaiters())
                .as("counted out once it held the queue lock")
                .isFalse();
        assertThat(mode.released(0L, false, true))
                .as("a release whose owner waited the bound, nobody waiting behind: no one left to serve in order")
                .isTrue();
        mode.startTurn(Long.MAX_VALUE, false);
        mode.released(0L, false, true);
        assertThat(mode.released(0L, false, false))
                .as("a release whose owner waited less")
                .isTrue();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aCallerThatWaitedTheBoundKeepsTheTurnGoingWhileAnotherWaitsBehind(ThreadKind kind) throws Exception {
        // A turn of at least three releases: the straggler's (in overtake), then a first queued owner's, which
        // holds the queue lock while a second and a third caller wait for it (the bound of 0). The release of
        // the one served first of those two, the turn's third, does not end it: the other waits behind. The
        // last one's release does: it waited the bound, and nobody waits behind it. Never saturated, so a turn
        // of the waiting callers; every probation busy, so one would not end there.
        NumaMonitorLock guard = lock(withBusyPercent(adaptation(1, 4, 1, 101, 3), 0));
        overtake(guard, kind, 3);
        assertThat(guard.isQueued()).as("waited the bound").isTrue();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        List<Boolean> queuedInSection = new CopyOnWriteArrayList<>();
        try (Workers workers = new Workers(guard)) {
            workers.start(
                    kind,
                    "first",
                    () -> guard.run(() -> {
                        entered.countDown();
                        await(go);
                    }));
            assertThat(entered.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            Thread second = workers.start(kind, "second", () -> guard.run(() -> queuedInSection.add(guard.isQueued())));
            assertThat(awaitParkedOrDone(second, PROMPT)).isTrue();
            Thread third = workers.start(kind, "third", () -> guard.run(() -> queuedInSection.add(guard.isQueued())));
            assertThat(awaitParkedOrDone(third, PROMPT)).isTrue();
            go.countDown();
            workers.joinAll(PROMPT);
        }
        assertThat(queuedInSection)
                .as("both ran queued: the release of the one served first did not end the turn")
                .containsExactly(true, true);
        assertThat(guard.isQueued())
                .as("the last one waited the bound and nobody waited behind it: the turn ended")
                .isFalse();
        AtomicInteger later = new AtomicInteger();
        GuardContractTest.inThread(kind, "later", () -> guard.run(later::incrementAndGet));
        assertThat(later).hasValue(1);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aTurnOfTheWaitingCallersServesACallerThatWaitedInTheMonitorBeforeItEnds(ThreadKind kind) throws Exception {
        // The holder turns the lock queued from inside its section (its nested calls overtake a first nested
        // call's wait), while a second thread waits in the monitor: that one is a straggler, and the turn does
        // not end, however many releases callers that queued later make, before it has been served.
        NumaMonitorLock guard = lock(adaptation(1, 1, 1, 0, 1));
        AtomicInteger later = new AtomicInteger();
        // the holder's middle call, overtaken once, waited the bound of 0; the waiter is the straggler
        overtake(guard, kind, 0, () -> guard.run(() -> guard.run(() -> {})));
        assertThat(guard.modeSwitches())
                .as("turned queued, and lean at most once")
                .isBetween(1L, 2L);
        // Every straggler served: a turn of the waiting callers ends only then (if it ended already, it was).
        GuardContractTest.inThread(kind, "later", () -> guard.run(later::incrementAndGet));
        assertThat(guard.isQueued())
                .as("a later caller's release ends the turn: every straggler served")
                .isFalse();
        assertThat(later).hasValue(1);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aQueuedLockTurnsLeanAfterAProbationThatWasNotBusy(ThreadKind kind) throws Exception {
        NumaMonitorLock guard = lock(COUNTED);
        overtake(guard, kind, 3, straightBack(guard));
        assertThat(guard.isQueued()).isTrue();
        // Saturated, straight back: a probation, as its doubling below shows (a turn of the waiting callers
        // starts no doubled one).
        AtomicInteger runs = new AtomicInteger();
        GuardContractTest.inThread(kind, "caller", () -> idleCalls(guard, 63, runs));
        assertThat(guard.isQueued()).as("63 of the probation's 64 releases").isTrue();
        GuardContractTest.inThread(kind, "caller", () -> idleCalls(guard, 1, runs));
        assertThat(guard.isQueued())
                .as("the probation's last release; its measured holds filled little of their span")
                .isFalse();
        assertThat(guard.modeSwitches()).isEqualTo(2);
        assertThat(runs).hasValue(64);

        overtake(guard, kind, 3, straightBack(guard)); // starving again within less lean than the probation
        assertThat(guard.isQueued()).isTrue();
        GuardContractTest.inThread(kind, "caller", () -> idleCalls(guard, 2 * 64 - 1, runs));
        assertThat(guard.isQueued()).as("twice the last probation: not over").isTrue();
        GuardContractTest.inThread(kind, "caller", () -> idleCalls(guard, 1, runs));
        assertThat(guard.isQueued()).as("twice the last probation: over").isFalse();
        GuardContractTest.inThread(kind, "caller", () -> idleCalls(guard, 2 * 64, runs)); // lean, each sampled
        overtake(guard, kind, 3, straightBack(guard)); // starving after as much lean as the probation
        assertThat(guard.isQueued()).isTrue();
        assertThat(releasesUntilLean(guard, kind, 4 * 64))
                .as("the first probation again")
                .isEqualTo(64);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void returnsAfterWorkOutsideTheLockVoteOutsideAndStraightBackInside(ThreadKind kind) throws Exception {
        // Every acquisition sampled, so each call's thread is watched until its next call; never starving.
        Adaptation watched = adaptation(1, 1 << 20, 1, 0, 64);
        NumaMonitorLock outside = lock(watched);
        NumaMonitorLock inside = lock(watched);
        GuardContractTest.inThread(kind, "outside", () -> {
            for (int i = 0; i < 20; i++) {
                outside.run(() -> {});
                spin(20_000L); // 20 us outside, an empty section inside
            }
        });
        GuardContractTest.inThread(kind, "inside", () -> {
            for (int i = 0; i < 20; i++) {
                inside.run(() -> spin(20_000L)); // 20 us inside, straight back
            }
        });
        NumaMonitorLock.State out = state(outside);
        NumaMonitorLock.State in = state(inside);
        // 19 returns each: the votes saturate at 8, and a return a loaded host stretched moves one by one.
        assertThat(out.outside())
                .as("votes %d after returns from 20 us outside", out.outsideVotes)
                .isTrue();
        assertThat(in.outside())
                .as("votes %d after returns straight back", in.outsideVotes)
                .isFalse();
        assertThat(out.outsideVotes).isGreaterThan((byte) 4);
        assertThat(in.outsideVotes).isLessThan((byte) -4);
        assertThat(outside.isQueued() || inside.isQueued()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void workOutsideTheLockMakesATurnOfTheWaitingCallersThatEndsHoweverBusy(ThreadKind kind) throws Exception {
        // Every probation busy: a probation would double and stay queued, whatever the host; a turn ends.
        NumaMonitorLock guard = lock(withBusyPercent(COUNTED, 0));
        NumaMonitorLock.State state = state(guard);
        // The votes, set at the end of the holder's section (its own nested calls vote too, on how long an
        // empty section takes against a return, which is no test's business); its own release may move them by one.
        overtake(guard, kind, 3, () -> state.outsideVotes = (byte) NumaMonitorLock.OUTSIDE_VOTES);
        assertThat(guard.isQueued()).as("waited the bound").isTrue();
        GuardContractTest.inThread(kind, "busy", () -> {
            for (int i = 0; i < 64; i++) {
                guard.run(() -> spin(9_000L)); // back to back: busy, which would double a probation
            }
        });
        assertThat(guard.isQueued())
                .as("the threads work outside: a turn, which ends once the waiting callers are served, however busy")
                .isFalse();
        assertThat(guard.modeSwitches()).isEqualTo(2);
    }

    /** {@code calls} empty critical sections, 20 us apart: the lock is held a small share of the time. */
    private static void idleCalls(NumaMonitorLock guard, int calls, AtomicInteger runs) {
        for (int i = 0; i < calls; i++) {
            guard.run(runs::incrementAndGet);
            LockSupport.parkNanos(20_000L);
        }
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aBusyQueuedLockStaysQueuedForADoubledProbation(ThreadKind kind) throws Exception {
        // A first probation of 1,024, busy at 5%: its measured part is its last 512 releases, ~5 ms of holds.
        // The holds are wall-clock time: a worker that a loaded host runs a fifth of the time fills a fifth
        // of the span (4 busy loops beside the JVM on 2 vCPUs: 11-22%), under the default BUSY_PERCENT, and
        // the lock rightly turns lean, for its threads are not running. The arithmetic is
        // aBusyProbationDoublesAndAnIdleOneTurnsLean's; here real threads' holds feed it.
        int first = 1024;
        NumaMonitorLock guard = lock(withBusyPercent(adaptation(1, 4, 1, 0, first), 5));
        overtake(guard, kind, 3, straightBack(guard));
        assertThat(guard.isQueued()).isTrue();
        AtomicInteger busyReleases = new AtomicInteger();
        long holdNanos = TimeUnit.MICROSECONDS.toNanos(9); // under the hold a measure counts at most
        long deadline = System.nanoTime() + PROMPT.toNanos();
        try (Workers workers = new Workers(guard)) {
            // One worker, back to back: its holds fill the span, with no handoff to a parked thread in it
            // (two workers made each handoff a wake-up, which on a loaded 2-vCPU guest can take longer than
            // the hold: a probation measured not busy, which failed CI runs). It stops by itself at the
            // third probation, after the first two's releases (or when the lock turns lean), so it is left
            // queued at the start of a probation of known length.
            workers.start(kind, "busy", () -> {
                while (guard.isQueued() && busyReleases.get() < first + 2 * first && System.nanoTime() < deadline) {
                    guard.run(() -> spin(holdNanos));
                    busyReleases.incrementAndGet();
                }
            });
            workers.joinAll(PROMPT);
        }
        assertThat(guard.isQueued()).as("busy: still queued").isTrue();
        assertThat(busyReleases)
                .as("a probation of 1,024, then one twice as long")
                .hasValue(3 * first);
        assertThat(releasesUntilLean(guard, kind, 2 * 4 * first))
                .as("then one twice as long again, which ends with nobody waiting: lean")
                .isEqualTo(4 * first);
    }

    @Test
    void aBusyProbationDoublesAndAnIdleOneTurnsLean() {
        // Busy at 5%: the measured half of the first probation, 32 holds of 9 us back to back, is busy unless
        // the host stops this thread for more than ~5 ms inside it (at the default 25%, a stop of ~1 ms, as a
        // loaded 2-vCPU guest makes, measured it idle); the idle probation's holds of ~no time 20 us apart
        // fill well under 5% of their span.
        NumaMonitorLock.QueuedMode mode = queuedMode(withBusyPercent(COUNTED, 5));
        mode.startTurn(Long.MAX_VALUE, true);
        assertThat(mode.turn).as("the first probation").isEqualTo(64);
        for (int i = 0; i < 63; i++) { // back to back, each held 9 us before its release: busy
            assertThat(mode.released(mode.measuring() ? System.nanoTime() - 9_000L : 0L, false, false))
                    .isFalse();
        }
        assertThat(mode.released(System.nanoTime() - 9_000L, false, false))
                .as("busy: stays queued")
                .isFalse();
        assertThat(mode.turn).as("a probation twice as long").isEqualTo(128);
        for (int i = 0; i < 128; i++) { // each held for no time, 20 us apart: not busy
            boolean measured = mode.measuring();
            if (measured) {
                LockSupport.parkNanos(20_000L);
            }
            assertThat(mode.released(measured ? System.nanoTime() : 0L, false, false))
                    .isEqualTo(i == 127);
        }
        mode.startTurn(10, true); // starving again 10 acquisitions after it turned lean
        assertThat(mode.turn).as("again soon: doubled").isEqualTo(256);
        mode.startTurn(1_000, true); // after more lean than the last probation
        assertThat(mode.turn).as("afresh").isEqualTo(64);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aCallerThatWaitedInTheMonitorAtTheSwitchRunsThereAsDoTheQueuedOwners(ThreadKind kind) throws Exception {
        // A holder in a lean section; a waiter blocks in the monitor; the holder's nested calls then turn the
        // lock queued (a turn of the waiting callers), and a caller that arrives after that queues. Once the
        // holder leaves, the waiter runs its section in the monitor, with the lock queued, not counted as a
        // straggler; the queued caller runs its own in the monitor too. No window is ever saturated (a share
        // above 100%), so the switch is a turn of the waiting callers however the threads' returns vote.
        NumaMonitorLock guard = lock(withSaturatedPercent(adaptation(1, 3, 1, 0, 1 << 20), 101));
        Object monitor = privateField(guard, "monitor");
        CountDownLatch in = new CountDownLatch(1);
        CountDownLatch turn = new CountDownLatch(1);
        CountDownLatch turned = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        List<String> sections = new CopyOnWriteArrayList<>();
        try (Workers workers = new Workers(guard)) {
            workers.start(
                    kind,
                    "holder",
                    () -> guard.run(() -> {
                        in.countDown();
                        await(turn);
                        guard.run(() -> {
                            for (int i = 0; i < 3; i++) {
                                guard.run(() -> {});
                            }
                        });
                        turned.countDown();
                        await(leave);
                    }));
            assertThat(in.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            Thread waiter = workers.start(
                    kind,
                    "waiter",
                    () -> guard.run(() -> sections.add(
                            "waiter queued=" + guard.isQueued() + " inMonitor=" + Thread.holdsLock(monitor))));
            assertThat(awaitParkedOrDone(waiter, PROMPT)).isTrue();
            turn.countDown();
            assertThat(turned.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            assertThat(guard.isQueued())
                    .as("turned queued inside the holder's section")
                    .isTrue();
            Thread queued = workers.start(
                    kind,
                    "queued",
                    () -> guard.run(() -> sections.add(
                            "queued queued=" + guard.isQueued() + " inMonitor=" + Thread.holdsLock(monitor))));
            assertThat(awaitParkedOrDone(queued, PROMPT)).isTrue();
            assertThat(sections).as("both wait for the holder").isEmpty();
            leave.countDown();
            workers.joinAll(PROMPT);
        }
        assertThat(sections)
                .containsExactlyInAnyOrder("waiter queued=true inMonitor=true", "queued queued=true inMonitor=true");
        // A probation here would last 2^20 releases; a turn of the waiting callers lasts DRAIN_RELEASES, the
        // queued caller's release the first, and ends then only if no straggler is left.
        assertThat(releasesUntilLean(guard, kind, 2 * NumaMonitorLock.DRAIN_RELEASES))
                .as("a turn of the waiting callers, which ends after its releases: the waiter was served, not counted")
                .isEqualTo(NumaMonitorLock.DRAIN_RELEASES - 1);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aProbationClosesTheDrainAndItsQueuedOwnersThenRunOutsideTheMonitor(ThreadKind kind) throws Exception {
        // A probation of 256 releases: its first DRAIN_RELEASES queued sections run in the monitor (the drain),
        // the rest outside it; the lock stays queued throughout.
        // A probation: a turn of the waiting callers would keep the drain open to its end (DRAIN_RELEASES),
        // then turn lean.
        NumaMonitorLock guard = lock(adaptation(1, 4, 1, 0, 256));
        Object monitor = privateField(guard, "monitor");
        overtake(guard, kind, 3, straightBack(guard));
        assertThat(guard.isQueued()).isTrue();
        List<Boolean> inMonitor = new ArrayList<>();
        GuardContractTest.inThread(kind, "caller", () -> {
            for (int i = 0; i < 200; i++) {
                guard.run(() -> inMonitor.add(Thread.holdsLock(monitor)));
            }
        });
        assertThat(guard.isQueued()).as("200 of the probation's 256 releases").isTrue();
        int drained = inMonitor.indexOf(false);
        assertThat(drained)
                .as("the drain's sections: about DRAIN_RELEASES")
                .isBetween(NumaMonitorLock.DRAIN_RELEASES, NumaMonitorLock.DRAIN_RELEASES + 1);
        assertThat(inMonitor.subList(0, drained))
                .as("the drain, in the monitor")
                .containsOnly(true);
        assertThat(inMonitor.subList(drained, inMonitor.size()))
                .as("after the drain, outside it")
                .containsOnly(false);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aCallInsideALeanSectionRunsInlineWhenTheLockTurnsQueued(ThreadKind kind) throws InterruptedException {
        // Calls nested two deep inside a lean section turn the lock queued at the end of the middle one
        // (overtaken by the innermost, which also fill two saturated windows), while the outer section
        // goes on. A queued caller then takes the queue lock and waits for the monitor (the drain: queued
        // sections run in the monitor too); a further call of the outer section must run inline, not wait
        // for the queue lock.
        NumaMonitorLock guard = lock(adaptation(1, 3, 1, 0, 1 << 20));
        CountDownLatch leanIn = new CountDownLatch(1);
        CountDownLatch leanGo = new CountDownLatch(1);
        AtomicInteger inner = new AtomicInteger();
        AtomicBoolean queuedInside = new AtomicBoolean();
        try (Workers workers = new Workers(guard)) {
            workers.start(
                    kind,
                    "lean",
                    () -> guard.run(() -> {
                        guard.run(() -> {
                            for (int i = 0; i < 3; i++) {
                                guard.run(() -> {});
                            }
                        });
                        queuedInside.set(guard.isQueued());
                        leanIn.countDown();
                        await(leanGo);
                        guard.run(inner::incrementAndGet);
                    }));
            assertThat(leanIn.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            assertThat(queuedInside).as("turned queued inside the lean section").isTrue();
            Thread queued = workers.start(kind, "queued", () -> guard.run(() -> guard.run(inner::incrementAndGet)));
            assertThat(awaitParkedOrDone(queued, PROMPT)).isTrue();
            assertThat(inner).as("the queued caller waits for the lean section").hasValue(0);
            leanGo.countDown();
            workers.joinAll(PROMPT);
        }
        assertThat(inner).as("both nested calls ran").hasValue(2);
    }

    /** A lock of the default thresholds: a word until two threads meet on it. */
    private static NumaMonitorLock wordLock() {
        return lock(Adaptation.DEFAULTS);
    }

    /** Until {@code guard}'s word is retiring (a caller found it held), or PROMPT passed: whether it is. */
    private static boolean awaitRetiring(NumaMonitorLock guard) throws ReflectiveOperationException {
        NumaMonitorLock.State state = (NumaMonitorLock.State) privateField(guard, "state");
        long deadline = System.nanoTime() + PROMPT.toNanos();
        while (!state.retiringOpaque() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(100_000L);
        }
        return state.retiringOpaque();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aWordTurnsLeanWhenTwoThreadsMeetOnItAndCountsEveryCall(ThreadKind kind) throws Exception {
        NumaMonitorLock guard = wordLock();
        int[] counter = {0};
        GuardContractTest.inThread(kind, "alone", () -> {
            for (int i = 0; i < 10_000; i++) {
                guard.run(() -> counter[0]++);
            }
        });
        assertThat(guard.isWord()).as("one thread after another never meets").isTrue();
        assertThat(guard.toString()).contains("word");

        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        try (Workers workers = new Workers(guard)) {
            workers.start(
                    kind,
                    "holder",
                    () -> guard.run(() -> {
                        entered.countDown();
                        await(go);
                        counter[0]++;
                    }));
            assertThat(entered.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            Thread waiter = workers.start(kind, "waiter", () -> guard.run(() -> counter[0]++));
            assertThat(awaitRetiring(guard))
                    .as("the waiter found the word held")
                    .isTrue();
            assertThat(awaitParkedOrDone(waiter, PROMPT)).isTrue();
            assertThat(waiter.getState())
                    .as("the waiter waits for the word's holder")
                    .isNotEqualTo(Thread.State.TERMINATED);
            assertThat(guard.isWord())
                    .as("not retired while its holder holds it")
                    .isTrue();
            go.countDown();
            workers.joinAll(PROMPT);
        }
        assertThat(counter[0]).isEqualTo(10_002);
        assertThat(guard.isWord()).as("two threads met on it").isFalse();
        assertThat(guard.isQueued()).isFalse();
        assertThat(guard.modeSwitches()).as("a retirement is not a mode switch").isZero();

        // Threads that start on a fresh word meet at once, and no increment is lost across the retirement.
        NumaMonitorLock fresh = wordLock();
        int[] shared = {0};
        int threads = kind.stressThreads();
        try (Workers workers = new Workers(fresh)) {
            for (int t = 0; t < threads; t++) {
                workers.start(kind, "t" + t, () -> {
                    for (int i = 0; i < 20_000; i++) {
                        if ((i & 1) == 0) {
                            fresh.run(() -> shared[0]++);
                        } else {
                            fresh.call(() -> shared[0]++);
                        }
                    }
                });
            }
            workers.joinAll(PROMPT);
        }
        assertThat(shared[0]).isEqualTo(threads * 20_000);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aCallInsideAWordSectionRunsInlineWhileAnotherThreadRetiresTheWord(ThreadKind kind) throws Exception {
        for (LockProbe probe : List.of(LockProbe.NONE, new TimedProbe())) {
            NumaMonitorLock guard = lock(Adaptation.DEFAULTS, probe);
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch go = new CountDownLatch(1);
            List<String> ran = java.util.Collections.synchronizedList(new ArrayList<>());
            try (Workers workers = new Workers(guard)) {
                workers.start(
                        kind,
                        "holder",
                        () -> guard.run(() -> {
                            entered.countDown();
                            await(go);
                            // The waiter holds the monitor while it waits for this word: these must not wait for it.
                            guard.run(() -> ran.add("nested run"));
                            ran.add(guard.call(() -> "nested call"));
                        }));
                assertThat(entered.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS))
                        .isTrue();
                workers.start(kind, "waiter", () -> guard.run(() -> ran.add("waiter")));
                assertThat(awaitRetiring(guard))
                        .as("the waiter is retiring the word")
                        .isTrue();
                go.countDown();
                workers.joinAll(PROMPT);
            }
            assertThat(ran).as("with %s", probe).containsExactly("nested run", "nested call", "waiter");
            assertThat(guard.isWord()).isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void noCallTakesTheWordOnceACallerIsRetiringIt(ThreadKind kind) throws Exception {
        NumaMonitorLock guard = wordLock();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        AtomicBoolean holderDone = new AtomicBoolean();
        List<Boolean> wordWhenLateRan = java.util.Collections.synchronizedList(new ArrayList<>());
        try (Workers workers = new Workers(guard)) {
            workers.start(
                    kind,
                    "holder",
                    () -> guard.run(() -> {
                        entered.countDown();
                        await(go);
                        holderDone.set(true);
                    }));
            assertThat(entered.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            workers.start(kind, "retiring", () -> guard.run(() -> {}));
            assertThat(awaitRetiring(guard)).isTrue();
            Thread late = workers.start(
                    kind,
                    "late",
                    () -> guard.run(() -> {
                        wordWhenLateRan.add(holderDone.get());
                        wordWhenLateRan.add(guard.isWord());
                    }));
            assertThat(awaitParkedOrDone(late, PROMPT)).isTrue();
            assertThat(late.getState()).as("the late caller waits").isNotEqualTo(Thread.State.TERMINATED);
            go.countDown();
            workers.joinAll(PROMPT);
        }
        assertThat(wordWhenLateRan)
                .as("the late caller ran after the holder, with the word retired")
                .containsExactly(true, false);

        // A free word whose retirement has begun (retiring set, the word not yet retired): a call does not take
        // it, but waits until the lock turns lean, here done by hand as the retiring caller would.
        NumaMonitorLock free = wordLock();
        NumaMonitorLock.State state = (NumaMonitorLock.State) privateField(free, "state");
        assertThat(state.casRetiring()).isTrue();
        AtomicBoolean ranAsWord = new AtomicBoolean(true);
        try (Workers workers = new Workers(free)) {
            Thread caller = workers.start(kind, "caller", () -> free.run(() -> ranAsWord.set(free.isWord())));
            assertThat(awaitParkedOrDone(caller, PROMPT)).isTrue();
            assertThat(caller.getState()).as("it waits, the word free").isNotEqualTo(Thread.State.TERMINATED);
            assertThat(state.casOwner(null, NumaMonitorLock.RETIRED)).isTrue();
            Object monitor = privateField(free, "monitor");
            synchronized (monitor) {
                state.setModeRelease(NumaMonitorLock.LEAN);
                monitor.notifyAll();
            }
            workers.joinAll(PROMPT);
        }
        assertThat(ranAsWord).as("its section ran once the lock was lean").isFalse();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void mutualExclusionAcrossModeSwitches(ThreadKind kind) throws InterruptedException {
        countAcrossSwitches(kind, lock(EAGER));
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void mutualExclusionAcrossModeSwitchesWithATimedProbe(ThreadKind kind) throws InterruptedException {
        TimedProbe probe = new TimedProbe();
        NumaMonitorLock guard = lock(EAGER, probe);
        long sections = countAcrossSwitches(kind, guard);
        assertThat(probe.acquired).as("one report per section, in either mode").hasValue(sections);
        assertThat(probe.released).as("one timed release per section").hasValue(sections);
        assertThat(probe.switches).as("every switch heard").hasValue(guard.modeSwitches());
    }

    /** Threads of {@code kind} count under {@code guard} while it switches; the sections counted. */
    private static long countAcrossSwitches(ThreadKind kind, NumaMonitorLock guard) throws InterruptedException {
        int threads = kind.stressThreads();
        int[] counter = {0};
        AtomicLong counted = new AtomicLong(); // each thread's own count of its critical sections
        AtomicBoolean inside = new AtomicBoolean(); // a critical section is running
        AtomicInteger overlaps = new AtomicInteger(); // sections that found another one running
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ConcurrencySupport.DURATION_MILLIS);
        long latest = deadline + PROMPT.toNanos() / 2; // on a loaded host, until the lock has switched at least once
        try (Workers workers = new Workers(guard)) {
            for (int t = 0; t < threads; t++) {
                workers.start(kind, "t" + t, () -> {
                    long mine = 0;
                    for (int i = 0; running(deadline, latest, guard); i++) {
                        boolean stall = (i & 63) == 0 && guard.modeSwitches() == 0;
                        Runnable section = () -> {
                            if (inside.getAndSet(true)) {
                                overlaps.incrementAndGet();
                            }
                            counter[0]++;
                            spin(TimeUnit.MICROSECONDS.toNanos(1)); // long enough to be met by the others
                            if (stall) {
                                // Until the first switch, a section in 64 parks inside: the others wait for
                                // it even where a loaded host runs the threads one at a time (four busy
                                // loops beside the JVM on 2 vCPUs: 117,000 platform sections, none waited
                                // for, no switch in 5 s).
                                LockSupport.parkNanos(50_000L);
                            }
                            inside.set(false);
                        };
                        if ((i & 1) == 0) { // both entries, whose paths differ but for the section's type
                            guard.run(section);
                        } else {
                            guard.call(() -> {
                                section.run();
                                return null;
                            });
                        }
                        mine++;
                        if ((i & 15) == 0) {
                            Thread.yield();
                        }
                    }
                    counted.addAndGet(mine);
                });
            }
            workers.joinAll(PROMPT);
        }
        assertThat(overlaps).as("no two critical sections at once").hasValue(0);
        assertThat((long) counter[0]).as("no update lost").isEqualTo(counted.get());
        assertThat(guard.modeSwitches())
                .as("the lock switched while the threads counted")
                .isPositive();
        return counted.get();
    }

    @Test
    void runAllocatesNothingPerCallLeanOrQueued() throws Exception {
        // Guard's own run wraps the section in a Supplier, 16 bytes a call, unless the JIT's escape analysis
        // removes it in a caller it compiled with everything inlined: a few thousand calls a mode, on a
        // thread of its own, are measured before that.
        NumaMonitorLock lean = lock(Adaptation.DEFAULTS);
        NumaMonitorLock queued = lock(adaptation(1, 4, 1, 0, 1 << 20));
        overtake(queued, ThreadKind.PLATFORM, 3, straightBack(queued)); // a probation
        assertThat(queued.isQueued()).isTrue();
        int[] counter = {0};
        Runnable section = () -> counter[0]++;
        long[] allocated = allocatedBy(guard -> guard.run(section), lean, queued);
        assertThat(allocated[0]).as("bytes for 2,000 lean calls").isLessThan(2_000 * 4);
        assertThat(allocated[1]).as("bytes for 2,000 queued calls").isLessThan(2_000 * 4);
        assertThat(queued.isQueued()).as("still queued: its probation is long").isTrue();
    }

    @Test
    void aProbedCallAllocatesNothingLeanOrQueued() throws Exception {
        // The probed call is the service's path. It wrapped each section in a Supplier with its times in a
        // long[3], about 80 bytes a call, before escape analysis could remove them.
        TimedProbe leanProbe = new TimedProbe();
        TimedProbe queuedProbe = new TimedProbe();
        NumaMonitorLock lean = lock(Adaptation.DEFAULTS, leanProbe);
        NumaMonitorLock queued = lock(adaptation(1, 1, 1, 0, 1 << 20), queuedProbe);
        AtomicInteger runs = new AtomicInteger();
        GuardContractTest.inThread(ThreadKind.PLATFORM, "caller", () -> idleCalls(queued, 3, runs)); // 2 windows
        // the holder's sampled release overtakes the waiter, whose threads come straight back: a probation
        overtake(queued, ThreadKind.PLATFORM, 0, straightBack(queued));
        assertThat(queued.isQueued()).isTrue();
        assertThat(queuedProbe.switches).hasValue(1);
        int[] counter = {0};
        Supplier<Object> section = () -> {
            counter[0]++;
            return null;
        };
        long[] allocated = allocatedBy(guard -> guard.call(section), lean, queued);
        assertThat(allocated[0]).as("bytes for 2,000 probed lean calls").isLessThan(2_000 * 4);
        assertThat(allocated[1]).as("bytes for 2,000 probed queued calls").isLessThan(2_000 * 4);
        assertThat(leanProbe.acquired).as("every lean call reported").hasValue(2_001);
        assertThat(queuedProbe.released)
                .as("every call timed: 3 idle, 2 overtaking, 2,001")
                .hasValue(2_006);
        assertThat(queued.isQueued()).as("still queued: its probation is long").isTrue();
    }

    @Test
    void aLeanCallThatIsNotSampledWritesNeitherItsMonitorNorItsState() throws Exception {
        // Once the monitor is inflated its acquisitions only read its header's line; a write there at each one
        // (a count that picked the samples) moved that line between carriers at every handoff. The state's
        // line is read by every call: it may change only at a sampled acquisition or a switch.
        NumaMonitorLock guard = lock(adaptation(1 << 30, 32, 16, 75, 4096));
        Object monitor = privateField(guard, "monitor");
        Object state = privateField(guard, "state");
        guard.run(() -> {}); // the first call may load classes
        List<Object> before = fieldsOf(monitor);
        List<Object> stateBefore = fieldsOf(state);
        int[] counter = {0};
        AtomicInteger runs = new AtomicInteger();
        GuardContractTest.inThread(ThreadKind.VIRTUAL, "caller", () -> {
            for (int i = 0; i < 2_000; i++) {
                guard.run(() -> counter[0]++);
                guard.call(runs::incrementAndGet);
            }
        });
        assertThat(counter[0]).isEqualTo(2_000);
        assertThat(fieldsOf(monitor))
                .as("the monitor's fields after 4,000 lean calls")
                .isEqualTo(before);
        assertThat(fieldsOf(state))
                .as("the state's fields after 4,000 lean calls")
                .isEqualTo(stateBefore);
        assertThat(guard.isQueued()).isFalse();
    }

    @Test
    void everySampledLeanAcquisitionAddsOneToTheEpochAndJoinsTheWindowOnTheStateAlone() throws Exception {
        // Every acquisition sampled, a window of four samples: the sample's writes are on the state's line.
        NumaMonitorLock guard = lock(adaptation(1, 1 << 20, 4, 75, 4096));
        Object monitor = privateField(guard, "monitor");
        NumaMonitorLock.State state = (NumaMonitorLock.State) privateField(guard, "state");
        guard.run(() -> {});
        List<Object> before = fieldsOf(monitor);
        int epoch = state.epoch;
        GuardContractTest.inThread(ThreadKind.VIRTUAL, "caller", () -> {
            for (int i = 0; i < 10; i++) {
                guard.run(() -> {});
            }
        });
        assertThat(state.epoch - epoch).as("epochs of 10 sampled acquisitions").isEqualTo(10);
        assertThat(state.samples).as("samples in the window after 11 of 4 each").isEqualTo(11 % 4);
        assertThat(state.windowFrom).as("a window began").isNotZero();
        assertThat(fieldsOf(monitor)).as("the monitor's fields").isEqualTo(before);
    }

    private static Object privateField(NumaMonitorLock guard, String name) throws ReflectiveOperationException {
        Field field = NumaMonitorLock.class.getDeclaredField(name);
        field.setAccessible(true);
        return field.get(guard);
    }

    /** The values of {@code object}'s instance fields, its superclasses' included, in declaration order. */
    private static List<Object> fieldsOf(Object object) throws IllegalAccessException {
        List<Object> values = new ArrayList<>();
        for (Class<?> c = object.getClass(); c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    f.setAccessible(true);
                    values.add(f.get(object));
                }
            }
        }
        return values;
    }

    /**
     * The bytes a platform thread of its own allocated in 2,000 calls of {@code call} on each of {@code guards},
     * after one call each (the first call of a mode may load classes).
     */
    private static long[] allocatedBy(Consumer<NumaMonitorLock> call, NumaMonitorLock... guards)
            throws InterruptedException {
        long[] allocated = new long[guards.length];
        GuardContractTest.inThread(ThreadKind.PLATFORM, "caller", () -> {
            com.sun.management.ThreadMXBean threads =
                    (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
            for (int g = 0; g < guards.length; g++) {
                call.accept(guards[g]);
                long before = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < 2_000; i++) {
                    call.accept(guards[g]);
                }
                allocated[g] = threads.getCurrentThreadAllocatedBytes() - before;
            }
        });
        return allocated;
    }

    @Test
    void aLockIsAtMost256BytesUntilItTurnsQueuedAndTheStateEveryCallReadsHasALineOfItsOwn() {
        ClassLayout state = ClassLayout.parseClass(NumaMonitorLock.State.class);
        long bytes = ClassLayout.parseClass(NumaMonitorLock.class).instanceSize()
                + state.instanceSize()
                + ClassLayout.parseClass(NumaMonitorLock.Monitor.class).instanceSize();
        assertThat(bytes).as("the guard, its state and its monitor").isLessThanOrEqualTo(256);
        assertThat(ClassLayout.parseClass(NumaMonitorLock.Monitor.class).fields())
                .as("the monitor's fields: none that a lean acquisition writes, with a probe or without")
                .extracting(FieldLayout::name)
                .containsExactlyInAnyOrder("switches", "mode");
        assertThat(lock(Adaptation.DEFAULTS)).extracting("monitor.mode").isNull();
        List<FieldLayout> own =
                state.fields().stream().filter(f -> !f.name().matches("p\\d+")).toList();
        assertThat(own)
                .extracting(FieldLayout::name)
                .containsExactlyInAnyOrder(
                        "owner",
                        "retiring",
                        "mode",
                        "epoch",
                        "samples",
                        "saturatedWindows",
                        "windowFrom",
                        "sampledHolds",
                        "watch",
                        "watchReleased",
                        "watchHold",
                        "outsideVotes",
                        "sampledAt");
        long start = own.stream().mapToLong(FieldLayout::offset).min().orElseThrow();
        long end = own.stream().mapToLong(f -> f.offset() + f.size()).max().orElseThrow();
        // Objects start at 8-byte boundaries, so a line holding one of the fields begins at most 56 bytes
        // before the first and ends at most 56 bytes after the last.
        long reach = 64 - 8;
        assertThat(end - start).as("the fields side by side, within a line").isLessThanOrEqualTo(64);
        assertThat(start).as("bytes of the state before its fields").isGreaterThanOrEqualTo(reach);
        assertThat(state.instanceSize() - end)
                .as("bytes of the state after its fields")
                .isGreaterThanOrEqualTo(reach);
    }
}
