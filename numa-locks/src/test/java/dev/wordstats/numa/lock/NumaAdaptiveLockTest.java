package dev.wordstats.numa.lock;

import static dev.wordstats.numa.lock.ConcurrencySupport.PROMPT;
import static dev.wordstats.numa.lock.ConcurrencySupport.awaitParkedOrDone;
import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.ConcurrencySupport.CriticalSection;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadIdNodes;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;

/** The mode switches of {@link NumaAdaptiveLock}: when it turns queued or lean, and that nothing is lost. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NumaAdaptiveLockTest {

    private static final NodeLocator ONE_NODE = NodeLocator.singleNode();

    @Test
    void aNewLockIsLeanAndSmall() {
        NumaAdaptiveLock lock = new NumaAdaptiveLock(TestLocks.context(ONE_NODE));
        assertThat(lock.isQueued()).isFalse();
        assertThat(lock.modeSwitches()).isZero();
        // The lock and its word; the locator and the settings are shared by every lock of a store.
        long bytes = ClassLayout.parseClass(NumaAdaptiveLock.class).instanceSize()
                + ClassLayout.parseClass(NumaAdaptiveLock.Word.class).instanceSize()
                + ClassLayout.parseClass(NumaAdaptiveLock.Parking.class).instanceSize();
        System.out.printf("NumaAdaptiveLock: %d bytes per lean lock (JOL, this JVM)%n", bytes);
        // The word, its statistics, its lead and its parking queue; the queue lock is made only when the
        // lock turns queued.
        assertThat(bytes).isLessThanOrEqualTo(256);
    }

    @Test
    void aLeanHandoffTouchesOneRunOfFieldsThatNoOtherObjectShares() {
        // Every field of the word a lean acquisition or release reads or writes, by name.
        Set<String> hot = Set.of(
                "state",
                "owner",
                "holds",
                "window",
                "contendedInWindow",
                "windows",
                "parked",
                "starvingWaiter",
                "sampling");
        ClassLayout word = ClassLayout.parseClass(NumaAdaptiveLock.Word.class);
        long first = Long.MAX_VALUE;
        long end = 0L;
        for (FieldLayout field : word.fields()) {
            if (hot.contains(field.name())) {
                first = Math.min(first, field.offset());
                end = Math.max(end, field.offset() + field.size());
            }
        }
        assertThat(hot).hasSize(9);
        // Within 48 bytes: at most two adjacent 64-byte lines wherever the object starts.
        assertThat(end - first).as("hot fields from %d to %d", first, end).isLessThanOrEqualTo(48);
        // 64 bytes from the last byte of the object before to the first hot byte, and from the last hot byte
        // to the first of the object after: never on one cache line.
        assertThat(first).as("the first hot field's offset").isGreaterThanOrEqualTo(63);
        assertThat(word.instanceSize() - end).as("bytes after the hot fields").isGreaterThanOrEqualTo(64);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aWaiterThatLostMoreAttemptsThanTheBoundTurnsTheLockQueued(ThreadKind kind) throws Exception {
        // Bound 0: a waiter that parked has lost attempts (its own before the park), so it says it
        // starves and the holder's release turns the lock queued. With the default bound the same
        // path needs lost wake-ups, which no test can produce on demand: an arriving thread wins a
        // freed lock only by the scheduler's timing.
        NumaAdaptiveLock lock = queuedLock(kind);
        assertThat(lock.modeSwitches()).isEqualTo(1);
        assertThat(lock.tryLock()).as("usable, queued").isTrue();
        lock.unlock();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aWaiterThatLostForLessThanTheStarvingTimeKeepsTheLockLean(ThreadKind kind) throws Exception {
        // The loss bound 0 as in queuedLock, but a wait must last an hour to starve: its losses
        // alone turn nothing (with the bound of 0 ns, queuedLock turns queued the same way).
        NumaAdaptiveLock lock = lockWith(STARVES_AT_ONCE.withStarvingNanos(TimeUnit.HOURS.toNanos(1)));
        contendOnce(lock, kind);
        assertThat(lock.isQueued()).isFalse();
        assertThat(lock.modeSwitches()).isZero();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aStarvingWaiterGetsAShortTurnAndAHotWindowAProbation(ThreadKind kind) throws Exception {
        // The default probation (4096) and window (64) for both; one turned queued by a starving
        // waiter (at the holder's release, so the waiter's release is the turn's first), one by a
        // window of one parked acquisition (at the waiter's release).
        NumaAdaptiveLock starved = lockWith(STARVES_AT_ONCE.withQuietToLeanNanos(Long.MAX_VALUE));
        contendOnce(starved, kind);
        assertThat(starved.isQueued()).isTrue();
        assertThat(acquireAloneWhileQueued(starved))
                .as("the rest of a turn of one window")
                .isEqualTo(NumaAdaptiveLock.WINDOW - 1);
        contendOnce(starved, kind); // starving again two lean acquisitions later: a probation
        assertThat(starved.isQueued()).isTrue();
        assertThat(acquireAloneWhileQueued(starved))
                .as("the rest of a probation")
                .isEqualTo(NumaAdaptiveLock.PROBATION - 1);

        NumaAdaptiveLock hot = lockWith(
                PARKS_AT_ONCE.withQuietToLeanNanos(Long.MAX_VALUE).withBusyPercent(NumaAdaptiveLock.NEVER_BUSY));
        contendOnce(hot, kind);
        assertThat(hot.isQueued()).isTrue();
        assertThat(acquireAloneWhileQueued(hot)).as("a probation").isEqualTo(NumaAdaptiveLock.PROBATION);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aWaiterHeldUpLongWithoutLosingKeepsTheLockLean(ThreadKind kind) throws Exception {
        NumaAdaptiveLock lock = new NumaAdaptiveLock(TestLocks.context(ONE_NODE));
        contendOnce(lock, kind, 20); // a long wait, but for one holder: no barging, nothing to bound
        assertThat(lock.isQueued()).isFalse();
        assertThat(lock.modeSwitches()).isZero();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void parkedLeanWaitersMoveToTheQueueWhenItTurnsOn(ThreadKind kind) throws Exception {
        NumaAdaptiveLock lock = firstLossTurnsQueued();
        CriticalSection section = new CriticalSection();
        int parked = 4;
        try (Workers workers = new Workers(lock)) {
            ConcurrencySupport.Holder holder = ConcurrencySupport.hold(lock, kind, workers);
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
            assertThat(lock.isQueued()).as("lean until the holder releases").isFalse();
            holder.release(); // a parked waiter said it starves: this release turns the lock queued
            workers.joinAll(PROMPT); // a lost wake-up would leave a waiter parked here
        }
        assertThat(lock.isQueued()).isTrue();
        assertThat(lock.modeSwitches()).isEqualTo(1);
        assertThat(section.counter()).isEqualTo(parked);
        assertThat(section.violations()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aQueuedLockTurnsLeanWhenItStaysQuiet(ThreadKind kind) throws Exception {
        // No probation: only the quiet can turn it lean.
        NumaAdaptiveLock lock = lockWith(PARKS_AT_ONCE.withProbation(Integer.MAX_VALUE, Integer.MAX_VALUE));
        contendOnce(lock, kind);
        assertThat(lock.isQueued()).isTrue();
        Thread.sleep(3 * NumaAdaptiveLock.QUIET_TO_LEAN_NANOS / 1_000_000L);
        assertThat(lock.isQueued()).as("a mode changes only at a release").isTrue();
        int acquisitions = acquireAloneWhileQueued(lock);
        assertThat(lock.isQueued()).isFalse();
        assertThat(lock.modeSwitches()).isEqualTo(2);
        System.out.printf("adaptive %s: lean again after %d quiet acquisitions%n", kind, acquisitions);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aQueuedLockWithWaitersStaysQueued(ThreadKind kind) throws Exception {
        NumaAdaptiveLock lock = queuedLock(kind);
        try (Workers workers = new Workers(lock)) {
            ConcurrencySupport.Holder holder = ConcurrencySupport.hold(lock, kind, workers);
            Thread waiter = workers.start(kind, "queued-waiter", () -> {
                lock.lock();
                lock.unlock();
            });
            assertThat(awaitParkedOrDone(waiter, PROMPT)).isTrue();
            Thread.sleep(3 * NumaAdaptiveLock.QUIET_TO_LEAN_NANOS / 1_000_000L);
            holder.release(); // a waiter is queued at this release: not quiet, however long it was
            workers.joinAll(PROMPT);
        }
        assertThat(lock.isQueued()).isTrue();
        assertThat(lock.modeSwitches()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void probationDoublesWhileTheLockTurnsQueuedAgainAtOnce(ThreadKind kind) throws Exception {
        // Never quiet long enough: only the probation turns it lean.
        NumaAdaptiveLock lock = lockWith(PARKS_AT_ONCE.withProbation(8, 16).withQuietToLeanNanos(Long.MAX_VALUE));
        contendOnce(lock, kind); // the waiter's release (a window with a parked acquisition) turns it queued
        assertThat(lock.isQueued()).isTrue();
        int first = acquireAloneWhileQueued(lock);
        assertThat(lock.isQueued()).isFalse();
        assertThat(first).as("queued releases alone").isEqualTo(8);

        contendOnce(lock, kind); // queued again after two lean acquisitions, fewer than the probation of 8
        assertThat(lock.isQueued()).isTrue();
        int second = acquireAloneWhileQueued(lock);
        assertThat(second).as("the probation doubled to 16").isEqualTo(16);

        contendOnce(lock, kind);
        assertThat(acquireAloneWhileQueued(lock)).as("and stays at its maximum").isEqualTo(16);
        assertThat(lock.modeSwitches()).isEqualTo(6);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void probationStartsAfreshAfterALongLeanPhase(ThreadKind kind) throws Exception {
        // No lean spin: the waiter parks at once, so its park counts after the lean phase's short sampled
        // holds too (a spin that ran out behind a platform owner, which always counts as running, would
        // be a stall of the owner's carrier as far as the lock can tell, and count only after long holds).
        NumaAdaptiveLock lock = lockWith(PARKS_AT_ONCE
                .withProbation(4, 64)
                .withQuietToLeanNanos(Long.MAX_VALUE)
                .withSpinNanos(0L));
        contendOnce(lock, kind);
        assertThat(acquireAloneWhileQueued(lock)).isEqualTo(4);
        for (int i = 0; i < 4 * NumaAdaptiveLock.WINDOW; i++) { // a lean phase far longer than the probation
            lock.lock();
            lock.unlock();
        }
        assertThat(lock.isQueued()).isFalse();
        contendOnce(lock, kind);
        assertThat(acquireAloneWhileQueued(lock)).as("not doubled").isEqualTo(4);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aBusyQueuedLockStaysQueuedPastItsProbation(ThreadKind kind) throws Exception {
        // A probation of 8 whose last 4 releases are measured; holds count in full (up to a 50 ms spin),
        // and the quiet time never ends. Three threads hold one lock 2 ms at a time, each release
        // finding the others queued; one of them takes the other lock between, briefly.
        NumaAdaptiveLock.Thresholds measured = PARKS_AT_ONCE
                .withProbation(8, 64)
                .withQuietToLeanNanos(Long.MAX_VALUE)
                .withSpinNanos(TimeUnit.MILLISECONDS.toNanos(50));
        NumaAdaptiveLock busy = lockWith(measured);
        NumaAdaptiveLock brief = lockWith(measured);
        contendOnce(busy, kind);
        contendOnce(brief, kind);
        assertThat(busy.isQueued() && brief.isQueued()).isTrue();
        try (Workers workers = new Workers(busy)) {
            for (int t = 0; t < 3; t++) {
                boolean alsoBrief = t == 0;
                workers.start(kind, "holder-" + t, () -> {
                    for (int i = 0; i < 12; i++) { // 36 releases: past the probations of 8 and 16
                        busy.lock();
                        try {
                            Thread.sleep(2);
                        } finally {
                            busy.unlock();
                        }
                        if (alsoBrief) { // 12 releases: past the probation of 8
                            brief.lock();
                            brief.unlock();
                        }
                    }
                });
            }
            workers.joinAll(PROMPT);
        }
        assertThat(busy.isQueued())
                .as("held nearly all the time, always waited for")
                .isTrue();
        assertThat(busy.modeSwitches()).isEqualTo(1);
        assertThat(brief.isQueued()).as("lean after its probation").isFalse();
        assertThat(brief.modeSwitches()).isEqualTo(2);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aBusyStarvingTurnBecomesAProbation(ThreadKind kind) throws Exception {
        // Windows of 8: a starving waiter's turn is 8 queued releases, the last 4 measured; holds
        // count in full (up to a 50 ms spin), and the quiet time never ends. Turned queued by a
        // starving waiter, three threads then hold the lock 2 ms at a time, each release finding the
        // others queued: the turn is busy and stays queued, through 36 releases.
        NumaAdaptiveLock.Thresholds turns = STARVES_AT_ONCE
                .withWindow(8, Integer.MAX_VALUE, 0L, Integer.MAX_VALUE)
                .withProbation(16, 64)
                .withQuietToLeanNanos(Long.MAX_VALUE)
                .withSpinNanos(TimeUnit.MILLISECONDS.toNanos(50));
        NumaAdaptiveLock busy = lockWith(turns);
        contendOnce(busy, kind);
        assertThat(busy.isQueued()).isTrue();
        try (Workers workers = new Workers(busy)) {
            for (int t = 0; t < 3; t++) {
                workers.start(kind, "holder-" + t, () -> {
                    for (int i = 0; i < 12; i++) {
                        busy.lock();
                        try {
                            Thread.sleep(2);
                        } finally {
                            busy.unlock();
                        }
                    }
                });
            }
            workers.joinAll(PROMPT);
        }
        assertThat(busy.isQueued()).as("a busy turn, then its probations").isTrue();
        assertThat(busy.modeSwitches()).isEqualTo(1);

        // The same turn with nobody waiting: lean after its 8 releases.
        NumaAdaptiveLock brief = lockWith(turns);
        contendOnce(brief, kind);
        assertThat(acquireAloneWhileQueued(brief)).as("the rest of the turn").isEqualTo(7);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aSaturatedLockWithShortHoldsTurnsQueuedAndWithLongHoldsStaysLean(ThreadKind kind) throws Exception {
        // A window of one: one contended acquisition is a saturated window. Every hold is short below
        // Long.MAX_VALUE ns, and none is below 0 ns. Parks and starving waiters turn nothing here.
        NumaAdaptiveLock.Thresholds never = NumaAdaptiveLock.Thresholds.DEFAULTS.withStarvingLosses(Integer.MAX_VALUE);
        NumaAdaptiveLock shortHolds = lockWith(never.withWindow(1, 1, Long.MAX_VALUE, Integer.MAX_VALUE));
        contendOnce(shortHolds, kind);
        assertThat(shortHolds.isQueued()).isTrue();

        NumaAdaptiveLock longHolds = lockWith(never.withWindow(1, 1, 0L, Integer.MAX_VALUE));
        for (int i = 0; i < 3; i++) {
            contendOnce(longHolds, kind);
        }
        assertThat(longHolds.isQueued()).isFalse();
        assertThat(longHolds.modeSwitches()).isZero();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aSaturatedLockWhoseWaitersSpinThroughLongHoldsTurnsQueued(ThreadKind kind) throws Exception {
        // As the long holds above (no hold is short), but the holder runs through its hold instead of
        // parking in it, and the waiter's spin bound is longer than the hold: it spins through it.
        NumaAdaptiveLock.Thresholds never = NumaAdaptiveLock.Thresholds.DEFAULTS
                .withStarvingLosses(Integer.MAX_VALUE)
                .withWindow(1, 1, 0L, Integer.MAX_VALUE)
                .withSpinNanos(TimeUnit.SECONDS.toNanos(5));
        NumaAdaptiveLock lock = lockWith(never);
        for (int round = 0; round < 2 && !lock.isQueued(); round++) { // round 1: the first window's hold is sampled
            // Held 50 ms past the waiter's arrival, running, never parked: the waiter spins through most of it.
            spinBehindARunningHolder(lock, kind, 0L, TimeUnit.MILLISECONDS.toNanos(50), 0L);
        }
        assertThat(lock.isQueued()).isTrue();
        assertThat(lock.modeSwitches()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void twoBusySampledWindowsInARowWhoseWaitersSpinTurnTheLockQueued(ThreadKind kind) throws Exception {
        // Windows of two, so the saturated count (never here), parks and starving turn nothing. A
        // busy window: its first acquisition (sampled: every eighth window's) is held 30 ms, running,
        // by a holder the second one spins behind from the start, so the hold fills the window and
        // the spin fills the hold.
        NumaAdaptiveLock.Thresholds busyOnly = NumaAdaptiveLock.Thresholds.DEFAULTS
                .withStarvingLosses(Integer.MAX_VALUE)
                .withWindow(2, Integer.MAX_VALUE, 0L, Integer.MAX_VALUE)
                .withSpinNanos(TimeUnit.SECONDS.toNanos(5));
        NumaAdaptiveLock busy = lockWith(busyOnly);
        sampledWindow(busy, kind, 0L, 0L);
        assertThat(busy.isQueued()).as("after one busy window").isFalse();
        sampledWindow(busy, kind, 0L, 0L);
        assertThat(busy.isQueued()).as("after two busy windows in a row").isTrue();
        assertThat(busy.modeSwitches()).isEqualTo(1);

        // The same holds, but the waiter keeps the lock 300 ms after it: the sampled hold, taken as
        // both acquisitions', fills a fifth of the window's span (a stall of the holder would need
        // over 100 ms to bring it to 75%).
        NumaAdaptiveLock idle = lockWith(busyOnly);
        for (int i = 0; i < 2; i++) {
            sampledWindow(idle, kind, 0L, TimeUnit.MILLISECONDS.toNanos(300));
        }
        assertThat(idle.isQueued()).as("held a fifth of the windows' time").isFalse();

        // The same holds, but the waiter arrives 300 ms into the hold: it spins a tenth of it (with a
        // stall of 30 ms while it spins, still under a fifth).
        NumaAdaptiveLock late = lockWith(busyOnly);
        for (int i = 0; i < 2; i++) {
            sampledWindow(late, kind, TimeUnit.MILLISECONDS.toNanos(300), 0L);
        }
        assertThat(late.isQueued()).as("spun a tenth of the hold").isFalse();
        assertThat(idle.modeSwitches() + late.modeSwitches()).isZero();
    }

    /**
     * One sampled window of two acquisitions, then the seven unsampled windows (alone) up to the next
     * sampled one: a holder runs until a waiter that arrives {@code arriveAfterNanos} into its hold has
     * spun 30 ms behind it; the waiter then keeps the lock {@code keepNanos}.
     */
    private static void sampledWindow(NumaAdaptiveLock lock, ThreadKind kind, long arriveAfterNanos, long keepNanos)
            throws Exception {
        spinBehindARunningHolder(lock, kind, arriveAfterNanos, TimeUnit.MILLISECONDS.toNanos(30), keepNanos);
        for (int i = 0; i < 7 * 2; i++) {
            lock.lock();
            lock.unlock();
        }
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void onTwoNodesASaturatedLockTurnsQueuedWhateverItsHold(ThreadKind kind) throws Exception {
        // As the long holds above (no hold is short), but the lock's context has two nodes: a lean
        // handoff may cross them, the queue lock's in-node passing does not.
        NumaAdaptiveLock.Thresholds never = NumaAdaptiveLock.Thresholds.DEFAULTS.withStarvingLosses(Integer.MAX_VALUE);
        NumaAdaptiveLock longHolds = new NumaAdaptiveLock(
                TestLocks.context(new ThreadIdNodes(2)),
                NumaMcsLock.DEFAULT_RESERVE_AFTER,
                LockProbe.NONE,
                never.withWindow(1, 1, 0L, Integer.MAX_VALUE));
        contendOnce(longHolds, kind);
        assertThat(longHolds.isQueued()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aLockWhoseWaitersParkTurnsQueued(ThreadKind kind) throws Exception {
        // One parked acquisition in a window of one; saturation and starving turn nothing here.
        NumaAdaptiveLock.Thresholds never = NumaAdaptiveLock.Thresholds.DEFAULTS.withStarvingLosses(Integer.MAX_VALUE);
        NumaAdaptiveLock parks = lockWith(never.withWindow(1, Integer.MAX_VALUE, 0L, 1));
        contendOnce(parks, kind); // the waiter parks behind a holder that is itself parked
        assertThat(parks.isQueued()).isTrue();
        assertThat(parks.modeSwitches()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void parksBehindAnOwnerThatRanPastTheSpinCountOnlyWithLongHolds(ThreadKind kind) throws Exception {
        // Windows of one; one parked acquisition turns the lock queued; saturation and starving never.
        // A waiter spins 1 ms while the owner runs (as a stalled carrier's thread still counts as
        // running), then parks. With the sampled hold short, that park is a stall and keeps the lock
        // lean; with the sampled hold as long as the spin, it is how the lock is held, and counts.
        NumaAdaptiveLock.Thresholds oneParkTurns = NumaAdaptiveLock.Thresholds.DEFAULTS
                .withStarvingLosses(Integer.MAX_VALUE)
                .withWindow(1, Integer.MAX_VALUE, 0L, 1)
                .withSpinNanos(TimeUnit.MILLISECONDS.toNanos(1));
        NumaAdaptiveLock shortHolds = lockWith(oneParkTurns);
        holdSampled(shortHolds, 0L);
        parkBehindARunningOwner(shortHolds, kind);
        assertThat(shortHolds.isQueued()).isFalse();
        assertThat(shortHolds.modeSwitches()).isZero();

        NumaAdaptiveLock longHolds = lockWith(oneParkTurns);
        holdSampled(longHolds, TimeUnit.MILLISECONDS.toNanos(5));
        parkBehindARunningOwner(longHolds, kind);
        assertThat(longHolds.isQueued()).isTrue();
        assertThat(longHolds.modeSwitches()).isEqualTo(1);
    }

    /**
     * A holder takes {@code lock} and runs, never parking, until a waiter that arrives
     * {@code arriveAfterNanos} into the hold has spun {@code spinNanos} behind it; the waiter then keeps
     * the lock {@code keepNanos}. Both have released when this returns.
     */
    private static void spinBehindARunningHolder(
            NumaAdaptiveLock lock, ThreadKind kind, long arriveAfterNanos, long spinNanos, long keepNanos)
            throws Exception {
        try (Workers workers = new Workers(lock)) {
            AtomicBoolean waiterArrived = new AtomicBoolean();
            CountDownLatch held = startRunningHolder(lock, kind, workers, waiterArrived, spinNanos);
            workers.start(kind, "waiter", () -> {
                held.await();
                spinFor(arriveAfterNanos);
                waiterArrived.set(true);
                lock.lock();
                try {
                    spinFor(keepNanos);
                } finally {
                    lock.unlock();
                }
            });
            workers.joinAll(PROMPT);
        }
    }

    /** The lock's first acquisition (its hold sampled, as the first of every eighth window), held {@code nanos}. */
    private static void holdSampled(NumaAdaptiveLock lock, long nanos) {
        lock.lock();
        try {
            spinFor(nanos);
        } finally {
            lock.unlock();
        }
        assertThat(lock.modeSwitches()).isZero();
    }

    /** A holder that runs (never parks) until a waiter has spun out its bound and parked behind it. */
    private static void parkBehindARunningOwner(NumaAdaptiveLock lock, ThreadKind kind) throws Exception {
        try (Workers workers = new Workers(lock)) {
            AtomicBoolean waiterParked = new AtomicBoolean();
            startRunningHolder(lock, kind, workers, waiterParked, 0L).await();
            Thread waiter = workers.start(kind, "waiter", () -> {
                lock.lock();
                lock.unlock();
            });
            assertThat(awaitParkedOrDone(waiter, PROMPT)).isTrue();
            assertThat(lock.parkedWaiters()).isEqualTo(1);
            waiterParked.set(true);
            workers.joinAll(PROMPT);
        }
    }

    /**
     * Starts a holder that takes {@code lock} and runs, never parking, until {@code until} is set (or
     * PROMPT passes), then {@code moreNanos} longer, then releases; the returned latch opens once it holds.
     */
    private static CountDownLatch startRunningHolder(
            NumaAdaptiveLock lock, ThreadKind kind, Workers workers, AtomicBoolean until, long moreNanos) {
        CountDownLatch held = new CountDownLatch(1);
        workers.start(kind, "holder", () -> {
            lock.lock();
            try {
                held.countDown();
                long giveUp = System.nanoTime() + PROMPT.toNanos();
                while (!until.get() && System.nanoTime() - giveUp < 0L) {
                    Thread.onSpinWait();
                }
                spinFor(moreNanos);
            } finally {
                lock.unlock();
            }
        });
        return held;
    }

    private static void spinFor(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() - end < 0L) {
            Thread.onSpinWait();
        }
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void waitersLeftParkedAtWindowEndsKeepTheLockLean(ThreadKind kind) throws Exception {
        // Windows of four: three waiters park behind a holder, so the window ends of their own releases
        // find 2, 1, 0 still parked; not one window had a saturated count or parked acquisitions enough.
        NumaAdaptiveLock.Thresholds never = NumaAdaptiveLock.Thresholds.DEFAULTS
                .withStarvingLosses(Integer.MAX_VALUE)
                .withWindow(4, 5, Long.MAX_VALUE, 4);
        NumaAdaptiveLock lock = lockWith(never);
        for (int round = 0; round < 3; round++) {
            try (Workers workers = new Workers(lock)) {
                ConcurrencySupport.Holder holder = ConcurrencySupport.hold(lock, kind, workers);
                List<Thread> waiters = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    waiters.add(workers.start(kind, "parked-" + i, () -> {
                        lock.lock();
                        lock.unlock();
                    }));
                }
                for (Thread waiter : waiters) {
                    assertThat(awaitParkedOrDone(waiter, PROMPT)).isTrue();
                }
                holder.release();
                workers.joinAll(PROMPT);
            }
        }
        assertThat(lock.isQueued()).isFalse();
        assertThat(lock.modeSwitches()).isZero();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void mutualExclusionAcrossModeSwitches(ThreadKind kind) throws Exception {
        // Bound 0: every acquisition that parked turns the lock queued, so it switches often while hot.
        NumaAdaptiveLock lock = firstLossTurnsQueued(new ThreadIdNodes(2));
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
        // At least the switch into queued mode (every parked acquisition asks for it here); whether it
        // also cooled depends on a quiet stretch the machine's load may not leave (checked on its own
        // by aQueuedLockTurnsLeanWhenItStaysQuiet).
        assertThat(lock.modeSwitches()).as("turned queued under contention").isGreaterThanOrEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aQueuedLockCountsReentrantHoldsOfEveryForm(ThreadKind kind) throws Exception {
        // Queued arrivals go straight to the queue lock, which counts the holds of its owner.
        NumaAdaptiveLock lock = queuedLock(kind);
        int[] counts = new int[4];
        boolean[] queuedWhileHeld = new boolean[1];
        try (Workers workers = new Workers(lock)) {
            workers.start(kind, "reentrant", () -> {
                lock.lock();
                queuedWhileHeld[0] = lock.isQueued(); // only its owner's release can change the mode
                lock.lockInterruptibly();
                counts[0] = lock.getHoldCount();
                counts[1] = lock.tryLock() ? lock.getHoldCount() : -1;
                counts[2] = lock.tryLock(1, TimeUnit.MILLISECONDS) ? lock.getHoldCount() : -1;
                for (int i = 0; i < 4; i++) {
                    lock.unlock();
                }
                counts[3] = lock.getHoldCount();
            });
            workers.joinAll(PROMPT);
        }
        assertThat(queuedWhileHeld[0]).isTrue();
        assertThat(counts).containsExactly(2, 3, 4, 0);
        assertThat(lock.isLocked()).isFalse();
        assertThat(lock.tryLock()).as("free for another thread").isTrue();
        lock.unlock();
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

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aProbeHearsEachAcquisitionAndBothModeSwitches(ThreadKind kind) throws Exception {
        CountingProbe probe = new CountingProbe(ONE_NODE);
        NumaAdaptiveLock lock = queuedLock(kind, probe);
        assertThat(probe.modeSwitches()).as("into the queued mode").isEqualTo(1);
        assertThat(probe.stats())
                .as("the holder at once, the waiter after waiting")
                .isEqualTo(new LockStats(1, 1, 1, 0));
        Thread.sleep(3 * NumaAdaptiveLock.QUIET_TO_LEAN_NANOS / 1_000_000L);
        int acquisitions = acquireAloneWhileQueued(lock);
        assertThat(lock.isQueued()).isFalse();
        assertThat(probe.modeSwitches()).as("back to lean").isEqualTo(2).isEqualTo(lock.modeSwitches());
        assertThat(probe.stats().acquisitions()).isEqualTo(2L + acquisitions);
        assertThat(probe.stats().slowAcquisitions())
                .as("no queued arrival found the queue lock held")
                .isEqualTo(1);
    }

    /**
     * The defaults, but a window of one acquisition, which turns the lock queued when it parked (a
     * hot window, which starts a probation); saturation and starving turn nothing.
     */
    private static final NumaAdaptiveLock.Thresholds PARKS_AT_ONCE = NumaAdaptiveLock.Thresholds.DEFAULTS
            .withWindow(1, Integer.MAX_VALUE, 0L, 1)
            .withStarvingLosses(Integer.MAX_VALUE);

    /** The defaults, but a waiter that lost one attempt (so parked) starves, however short its wait. */
    private static final NumaAdaptiveLock.Thresholds STARVES_AT_ONCE =
            NumaAdaptiveLock.Thresholds.DEFAULTS.withStarvingLosses(0).withStarvingNanos(0L);

    private static NumaAdaptiveLock lockWith(NumaAdaptiveLock.Thresholds thresholds) {
        return new NumaAdaptiveLock(
                TestLocks.context(ONE_NODE), NumaMcsLock.DEFAULT_RESERVE_AFTER, LockProbe.NONE, thresholds);
    }

    /**
     * One contended acquisition: a waiter parks (or, on a platform thread, spins, then parks) behind
     * a holder, which then releases; both have released when this returns.
     */
    private static void contendOnce(NumaAdaptiveLock lock, ThreadKind kind) throws Exception {
        contendOnce(lock, kind, 0);
    }

    /** As {@link #contendOnce(NumaAdaptiveLock, ThreadKind)}, the holder keeping the lock {@code millis} longer. */
    private static void contendOnce(NumaAdaptiveLock lock, ThreadKind kind, long millis) throws Exception {
        try (Workers workers = new Workers(lock)) {
            ConcurrencySupport.Holder holder = ConcurrencySupport.hold(lock, kind, workers);
            Thread waiter = workers.start(kind, "waiter", () -> {
                lock.lock();
                lock.unlock();
            });
            assertThat(awaitParkedOrDone(waiter, PROMPT)).isTrue();
            Thread.sleep(millis);
            holder.release();
            workers.joinAll(PROMPT);
        }
    }

    /** A lock that turns queued at the first release after a waiter lost an attempt (so parked). */
    private static NumaAdaptiveLock firstLossTurnsQueued() {
        return firstLossTurnsQueued(ONE_NODE);
    }

    private static NumaAdaptiveLock firstLossTurnsQueued(NodeLocator nodes) {
        return firstLossTurnsQueued(nodes, LockProbe.NONE);
    }

    private static NumaAdaptiveLock firstLossTurnsQueued(NodeLocator nodes, LockProbe probe) {
        return new NumaAdaptiveLock(
                TestLocks.context(nodes), NumaMcsLock.DEFAULT_RESERVE_AFTER, probe, STARVES_AT_ONCE);
    }

    /** A lock turned queued by one waiter that parked behind a holder. */
    private static NumaAdaptiveLock queuedLock(ThreadKind kind) throws Exception {
        return queuedLock(kind, LockProbe.NONE);
    }

    /**
     * Takes and releases {@code lock} on the calling thread, alone, while it stays queued (at most
     * {@code PROMPT}); the number of acquisitions that took.
     */
    private static int acquireAloneWhileQueued(NumaAdaptiveLock lock) {
        long start = System.nanoTime();
        int acquisitions = 0;
        while (lock.isQueued() && System.nanoTime() - start < PROMPT.toNanos()) {
            lock.lock(); // alone: nobody is ever queued, the queue lock is free at every arrival
            lock.unlock();
            acquisitions++;
        }
        return acquisitions;
    }

    /** As {@link #queuedLock(ThreadKind)}, reporting to {@code probe}. */
    private static NumaAdaptiveLock queuedLock(ThreadKind kind, LockProbe probe) throws Exception {
        NumaAdaptiveLock lock = firstLossTurnsQueued(ONE_NODE, probe);
        contendOnce(lock, kind);
        assertThat(lock.isQueued()).isTrue();
        return lock;
    }
}
