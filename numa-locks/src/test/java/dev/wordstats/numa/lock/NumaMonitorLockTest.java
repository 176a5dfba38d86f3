package dev.wordstats.numa.lock;

import static dev.wordstats.numa.lock.ConcurrencySupport.PROMPT;
import static dev.wordstats.numa.lock.ConcurrencySupport.awaitParkedOrDone;
import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.topology.NodeLocator;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
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
 * every type by {@link BareGuardContractTest} and {@link ProbedGuardContractTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NumaMonitorLockTest {

    /** A wait that starves under {@link #COUNTED}: {@link #overtake} makes its waiter wait twice that. */
    private static final long STARVING_MILLIS = 20;

    /**
     * Every acquisition sampled and a window of its own, every window saturated, a caller that waited
     * STARVING_MILLIS starves, never quiet; probations of 64 releases.
     */
    private static final NumaMonitorLock.Thresholds COUNTED =
            new NumaMonitorLock.Thresholds(0, TimeUnit.MILLISECONDS.toNanos(STARVING_MILLIS), 1, 0, 64, 0L);

    /** As COUNTED, with probations of 2^20 releases: a lock that stays queued. */
    private static final NumaMonitorLock.Thresholds STAYS_QUEUED =
            new NumaMonitorLock.Thresholds(0, TimeUnit.MILLISECONDS.toNanos(STARVING_MILLIS), 1, 0, 1 << 20, 0L);

    private static NumaMonitorLock lock(NumaMonitorLock.Thresholds thresholds) {
        return lock(thresholds, LockProbe.NONE);
    }

    private static NumaMonitorLock lock(NumaMonitorLock.Thresholds thresholds, LockProbe probe) {
        return new NumaMonitorLock(
                TestLocks.context(NodeLocator.singleNode()), NumaMcsLock.DEFAULT_RESERVE_AFTER, probe, thresholds);
    }

    /** A timed probe that hears every acquisition, as the service's: it counts what it is told, allocating nothing. */
    private static final class TimedProbe implements LockProbe {
        final AtomicLong acquired = new AtomicLong();
        final AtomicLong released = new AtomicLong();
        final AtomicLong switches = new AtomicLong();

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
            switches.incrementAndGet();
        }
    }

    /**
     * A holder enters; a waiter arrives and waits in the monitor, for twice STARVING_MILLIS; then the holder
     * leaves. Every call sampled: the holder's, which did not wait, and the waiter's, which starved.
     */
    private static void overtake(NumaMonitorLock guard, ThreadKind kind) throws InterruptedException {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        try (Workers workers = new Workers(guard)) {
            workers.start(
                    kind,
                    "holder",
                    () -> guard.run(() -> {
                        entered.countDown();
                        await(go);
                    }));
            assertThat(entered.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            Thread waiter = workers.start(kind, "waiter", () -> guard.run(() -> {}));
            assertThat(awaitParkedOrDone(waiter, PROMPT)).isTrue();
            Thread.sleep(2 * STARVING_MILLIS);
            assertThat(waiter.getState()).as("the waiter waits for the holder").isNotEqualTo(Thread.State.TERMINATED);
            go.countDown();
            workers.joinAll(PROMPT);
        }
    }

    /**
     * A waiter of {@code guard} (every call sampled, each window of one sample) starves and starts a watch;
     * two more calls close two windows.
     */
    private static void starveAndWatch(NumaMonitorLock guard, ThreadKind kind) throws InterruptedException {
        overtake(guard, kind);
        GuardContractTest.inThread(kind, "caller", () -> {
            guard.run(() -> {});
            guard.run(() -> {});
        });
    }

    private static NumaMonitorLock.State state(NumaMonitorLock guard) throws ReflectiveOperationException {
        return (NumaMonitorLock.State) privateField(guard, "state");
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
    void aStarvingWaiterTurnsTheLockQueued(ThreadKind kind) throws Exception {
        NumaMonitorLock starved = lock(COUNTED);
        overtake(starved, kind);
        assertThat(state(starved).watching)
                .as("the starved waiter started a watch")
                .isTrue();
        assertThat(starved.isQueued()).as("no window yet").isFalse();
        GuardContractTest.inThread(kind, "caller", () -> starved.run(() -> {}));
        assertThat(starved.isQueued()).as("one saturated window").isFalse();
        GuardContractTest.inThread(kind, "caller", () -> starved.run(() -> {}));
        assertThat(starved.isQueued()).as("two saturated windows in a row").isTrue();
        assertThat(starved.modeSwitches()).isEqualTo(1);
        assertThat(starved.probationReleases()).as("the first probation").isEqualTo(64);
        assertThat(state(starved).watching).as("no watch while queued").isFalse();

        NumaMonitorLock served = lock(COUNTED.withStarvingNanos(TimeUnit.HOURS.toNanos(1)));
        starveAndWatch(served, kind);
        assertThat(state(served).watching)
                .as("a wait shorter than the bound starts no watch")
                .isFalse();
        assertThat(served.isQueued()).isFalse();
        assertThat(served.modeSwitches()).isZero();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aStarvingWaiterKeepsALockThatIsNotSaturatedLeanAndQuiet(ThreadKind kind) throws Exception {
        // Windows are never saturated at a share above 100%: the holds of a window never fill more than its span.
        NumaMonitorLock guard = lock(COUNTED.withSaturatedPercent(101).withQuietNanos(1_000_000L));
        NumaMonitorLock.State state = state(guard);
        overtake(guard, kind);
        assertThat(state.watching).as("starving: a watch").isTrue();
        GuardContractTest.inThread(kind, "caller", () -> guard.run(() -> {}));
        assertThat(state.watching)
                .as("a window that was not saturated ends the watch")
                .isFalse();
        assertThat(state.cooled).isTrue();
        assertThat(state.quietNanos).as("quiet for the first stretch").isEqualTo(1_000_000);
        overtake(guard, kind); // 40 ms later: no longer quiet
        GuardContractTest.inThread(kind, "caller", () -> guard.run(() -> {}));
        assertThat(state.quietNanos)
                .as("a second watch that ended: twice as quiet")
                .isEqualTo(2_000_000);
        assertThat(guard.isQueued())
                .as("starving, but the lock is not its threads' bottleneck")
                .isFalse();
        assertThat(guard.modeSwitches()).isZero();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aSaturatedWindowResetsTheQuietStretch(ThreadKind kind) throws Exception {
        NumaMonitorLock guard = lock(COUNTED.withQuietNanos(1_000_000L));
        NumaMonitorLock.State state = state(guard);
        // As after three watches that ended, the last one long ago: quiet stretches of 8 ms from here on.
        GuardContractTest.inThread(
                kind,
                "caller",
                () -> guard.run(() -> {
                    state.quietNanos = 8_000_000;
                    state.quietFrom = System.nanoTime() - TimeUnit.SECONDS.toNanos(1);
                }));
        overtake(guard, kind);
        assertThat(state.watching).as("no longer quiet: a watch").isTrue();
        GuardContractTest.inThread(kind, "caller", () -> guard.run(() -> {}));
        assertThat(state.saturatedWindows).as("a saturated window").isEqualTo(1);
        assertThat(state.quietNanos).as("the quiet stretch starts afresh").isZero();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aStarvingWaiterOfAQuietLockStartsNoWatch(ThreadKind kind) throws Exception {
        NumaMonitorLock guard = lock(COUNTED.withSaturatedPercent(50).withQuietNanos(NumaMonitorLock.MAX_QUIET_NANOS));
        NumaMonitorLock.State state = state(guard);
        // A window that is not saturated, from inside the watch's first section: the lock turns quiet.
        overtake(guard, kind);
        GuardContractTest.inThread(
                kind,
                "caller",
                () -> guard.run(() -> {
                    state.windowFrom -= TimeUnit.SECONDS.toNanos(1); // a span the hold cannot fill
                }));
        assertThat(state.watching).isFalse();
        assertThat(state.quietNanos).isEqualTo((int) NumaMonitorLock.MAX_QUIET_NANOS);
        overtake(guard, kind); // starving again, within the quiet second
        assertThat(state.watching).as("quiet: no watch").isFalse();
        GuardContractTest.inThread(kind, "caller", () -> guard.run(() -> {}));
        assertThat(state.watching).isFalse();
        assertThat(state.samples).as("no window").isZero();
        assertThat(guard.isQueued()).isFalse();
        assertThat(guard.modeSwitches()).isZero();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aQueuedLockTurnsLeanAfterAProbationThatWasNotBusy(ThreadKind kind) throws Exception {
        NumaMonitorLock guard = lock(COUNTED);
        starveAndWatch(guard, kind);
        assertThat(guard.isQueued()).isTrue();
        AtomicInteger runs = new AtomicInteger();
        GuardContractTest.inThread(kind, "caller", () -> idleCalls(guard, 63, runs));
        assertThat(guard.isQueued()).as("63 of the probation's 64 releases").isTrue();
        GuardContractTest.inThread(kind, "caller", () -> idleCalls(guard, 1, runs));
        assertThat(guard.isQueued())
                .as("the probation's last release; its measured holds filled little of their span")
                .isFalse();
        assertThat(guard.modeSwitches()).isEqualTo(2);
        assertThat(runs).hasValue(64);

        starveAndWatch(guard, kind); // starving again, no watch found it cooled since
        assertThat(guard.isQueued()).isTrue();
        assertThat(guard.probationReleases()).as("twice the last probation").isEqualTo(2 * 64);
        GuardContractTest.inThread(kind, "caller", () -> idleCalls(guard, 2 * 64, runs));
        assertThat(guard.isQueued()).isFalse();
        NumaMonitorLock.State state = state(guard);
        // What a watch that ends with a window that was not saturated leaves (checked on its own below); the
        // windows of this lock are always saturated.
        GuardContractTest.inThread(kind, "caller", () -> guard.run(() -> state.cooled = true));
        starveAndWatch(guard, kind); // starving after a watch found the lock cooled
        assertThat(guard.isQueued()).isTrue();
        assertThat(guard.probationReleases()).as("the first probation again").isEqualTo(64);
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
    void aBusyQueuedLockStaysQueuedForADoubledProbation(ThreadKind kind) throws InterruptedException {
        // Probations of 1,024 releases, their measured halves spanning milliseconds; every lean call starving (a
        // wait of 0 ns or more): see below.
        int first = 1024;
        NumaMonitorLock guard = lock(new NumaMonitorLock.Thresholds(0, 0L, 1, 0, first, 0L));
        starveAndWatch(guard, kind);
        assertThat(guard.probationReleases()).isEqualTo(first);
        AtomicBoolean stop = new AtomicBoolean();
        long holdNanos = TimeUnit.MICROSECONDS.toNanos(9); // under the hold a measure counts at most
        try (Workers workers = new Workers(guard)) {
            // Two, one per carrier of a 2-CPU host: with more virtual threads each handoff goes to a parked
            // one, which on a loaded 2-vCPU guest can take as long as the hold, and a probation whose holds
            // fill less than BUSY_PERCENT of its span is not busy (it failed a CI run so, 1 in about 5).
            for (int t = 0; t < 2; t++) {
                workers.start(kind, "busy-" + t, () -> {
                    while (!stop.get()) {
                        guard.run(() -> spin(holdNanos));
                    }
                });
            }
            long deadline = System.nanoTime() + PROMPT.toNanos();
            // Until the probation doubled twice, with the lock queued. A probation whose handoffs went to parked
            // threads (tens of microseconds each on this host, against holds of 9) looks idle and turns the lock
            // lean, where two threads need not starve: every lean call starving brings it back within three
            // calls, a return that doubles the probation too (aBusyProbationDoublesAndAnIdleOneTurnsLean checks
            // the busy rule alone).
            while ((guard.probationReleases() < 4 * first || !guard.isQueued()) && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(guard.isQueued()).as("busy: queued").isTrue();
            assertThat(guard.probationReleases())
                    .as("a first probation, then one twice as long, then again, ...")
                    .isGreaterThanOrEqualTo(4 * first);
            stop.set(true);
            workers.joinAll(PROMPT);
        }

        GuardContractTest.inThread(kind, "caller", () -> {
            for (int i = 0; i < 1 << 14 && guard.isQueued(); i++) {
                idleCalls(guard, 1, new AtomicInteger());
            }
        });
        assertThat(guard.isQueued())
                .as("the probation ends with nobody waiting: lean")
                .isFalse();
    }

    @Test
    void aBusyProbationDoublesAndAnIdleOneTurnsLean() {
        NumaMonitorLock.QueuedMode mode = new NumaMonitorLock.QueuedMode(
                new NumaHandoffLock(NodeLocator.singleNode(), NumaMcsLock.DEFAULT_RESERVE_AFTER, 2), COUNTED);
        mode.startProbation(false);
        assertThat(mode.turn).as("the first probation").isEqualTo(64);
        for (int i = 0; i < 63; i++) { // back to back, each held 5 us before its release: busy
            assertThat(mode.released(mode.measuring() ? System.nanoTime() - 5_000L : 0L))
                    .isFalse();
        }
        assertThat(mode.released(System.nanoTime() - 5_000L))
                .as("busy: stays queued")
                .isFalse();
        assertThat(mode.turn).as("a probation twice as long").isEqualTo(128);
        for (int i = 0; i < 128; i++) { // each held for no time, 20 us apart: not busy
            boolean measured = mode.measuring();
            if (measured) {
                LockSupport.parkNanos(20_000L);
            }
            assertThat(mode.released(measured ? System.nanoTime() : 0L)).isEqualTo(i == 127);
        }
        mode.startProbation(true); // starving again, no watch found the lock cooled since
        assertThat(mode.turn).as("again: doubled").isEqualTo(256);
        mode.startProbation(false); // after a watch found it cooled
        assertThat(mode.turn).as("afresh").isEqualTo(64);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aCallInsideALeanSectionRunsInlineWhenTheLockTurnsQueued(ThreadKind kind) throws InterruptedException {
        // Calls nested two deep inside a lean section turn the lock queued (every call starving: the first
        // innermost one starts a watch, the next two close two saturated windows), while the outer section
        // goes on. A queued caller then takes the queue lock and waits for the monitor (the barrier
        // before the first queued section); a further call of the outer section must run inline, not
        // wait for the queue lock.
        NumaMonitorLock guard = lock(new NumaMonitorLock.Thresholds(0, 0L, 1, 0, 1 << 20, 0L));
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

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void mutualExclusionAcrossModeSwitches(ThreadKind kind) throws InterruptedException {
        countAcrossSwitches(kind, lock(NumaMonitorLock.Thresholds.EAGER));
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void mutualExclusionAcrossModeSwitchesWithATimedProbe(ThreadKind kind) throws InterruptedException {
        TimedProbe probe = new TimedProbe();
        NumaMonitorLock guard = lock(NumaMonitorLock.Thresholds.EAGER, probe);
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
                        Runnable section = () -> {
                            if (inside.getAndSet(true)) {
                                overlaps.incrementAndGet();
                            }
                            counter[0]++;
                            spin(TimeUnit.MICROSECONDS.toNanos(1)); // long enough to be met by the others
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
    void runAllocatesNothingPerCallLeanOrQueued() throws InterruptedException {
        // Guard's own run wraps the section in a Supplier, 16 bytes a call, unless the JIT's escape analysis
        // removes it in a caller it compiled with everything inlined: a few thousand calls a mode, on a
        // thread of its own, are measured before that.
        NumaMonitorLock lean = lock(NumaMonitorLock.Thresholds.DEFAULTS);
        NumaMonitorLock queued = lock(STAYS_QUEUED);
        starveAndWatch(queued, ThreadKind.PLATFORM);
        assertThat(queued.isQueued()).isTrue();
        int[] counter = {0};
        Runnable section = () -> counter[0]++;
        long[] allocated = allocatedBy(guard -> guard.run(section), lean, queued);
        assertThat(allocated[0]).as("bytes for 2,000 lean calls").isLessThan(2_000 * 4);
        assertThat(allocated[1]).as("bytes for 2,000 queued calls").isLessThan(2_000 * 4);
        assertThat(queued.isQueued()).as("still queued: its probation is long").isTrue();
    }

    @Test
    void aProbedCallAllocatesNothingLeanOrQueued() throws InterruptedException {
        // The probed call is the service's path. It wrapped each section in a Supplier with its times in a
        // long[3], about 80 bytes a call, before escape analysis could remove them.
        TimedProbe leanProbe = new TimedProbe();
        TimedProbe queuedProbe = new TimedProbe();
        NumaMonitorLock lean = lock(NumaMonitorLock.Thresholds.DEFAULTS, leanProbe);
        NumaMonitorLock queued = lock(STAYS_QUEUED, queuedProbe);
        starveAndWatch(queued, ThreadKind.PLATFORM);
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
                .as("every call timed: 2 overtaking, 2 watched, 2,001")
                .hasValue(2_005);
        assertThat(queued.isQueued()).as("still queued: its probation is long").isTrue();
    }

    @Test
    void aLeanCallThatIsNotSampledWritesNeitherItsMonitorNorItsState() throws Exception {
        // Once the monitor is inflated its acquisitions only read its header's line; a write there at each one
        // (a count that picked the samples) moved that line between carriers at every handoff. The state's
        // line is read by every call: it may change only at a sampled acquisition or a switch.
        NumaMonitorLock guard = lock(NumaMonitorLock.Thresholds.DEFAULTS.withSampleMask((1 << 30) - 1));
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
    void aSampledCallWritesNothingUnlessItStarvedOrTheLockIsWatched() throws Exception {
        // Every call sampled, none starving: a sampled call clocks its wait, and writes nothing.
        NumaMonitorLock guard = lock(COUNTED.withStarvingNanos(TimeUnit.HOURS.toNanos(1)));
        Object monitor = privateField(guard, "monitor");
        Object state = privateField(guard, "state");
        guard.run(() -> {});
        List<Object> before = fieldsOf(monitor);
        List<Object> stateBefore = fieldsOf(state);
        GuardContractTest.inThread(ThreadKind.VIRTUAL, "caller", () -> {
            for (int i = 0; i < 2_000; i++) {
                guard.run(() -> {});
            }
        });
        assertThat(fieldsOf(monitor)).as("the monitor's fields").isEqualTo(before);
        assertThat(fieldsOf(state)).as("the state's fields").isEqualTo(stateBefore);
    }

    @Test
    void aWatchedLocksSampledHoldsJoinItsWindowOnTheStateAlone() throws Exception {
        // Every call sampled and starving, windows of four samples: a watch's writes are on the state's line.
        NumaMonitorLock guard = lock(new NumaMonitorLock.Thresholds(0, 0L, 4, 0, 4096, 0L));
        Object monitor = privateField(guard, "monitor");
        NumaMonitorLock.State state = state(guard);
        List<Object> before = fieldsOf(monitor);
        GuardContractTest.inThread(ThreadKind.VIRTUAL, "caller", () -> {
            for (int i = 0; i < 8; i++) { // the first starts the watch; 4 close a window; 3 more
                guard.run(() -> {});
            }
        });
        assertThat(state.watching).isTrue();
        assertThat(state.saturatedWindows).as("one window closed, saturated").isEqualTo(1);
        assertThat(state.samples).as("samples in the next window").isEqualTo(3);
        assertThat(guard.isQueued()).isFalse();
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
        assertThat(lock(NumaMonitorLock.Thresholds.DEFAULTS))
                .extracting("monitor.mode")
                .isNull();
        List<FieldLayout> own =
                state.fields().stream().filter(f -> !f.name().matches("p\\d+")).toList();
        assertThat(own)
                .extracting(FieldLayout::name)
                .containsExactlyInAnyOrder(
                        "queued",
                        "watching",
                        "cooled",
                        "samples",
                        "saturatedWindows",
                        "quietNanos",
                        "windowFrom",
                        "sampledHolds",
                        "quietFrom");
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
