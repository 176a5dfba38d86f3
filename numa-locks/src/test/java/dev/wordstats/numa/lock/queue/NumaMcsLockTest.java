package dev.wordstats.numa.lock.queue;

import static dev.wordstats.numa.lock.ConcurrencySupport.PROMPT;
import static dev.wordstats.numa.lock.ConcurrencySupport.awaitParkedOrDone;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.lock.ConcurrencySupport;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadIdNodes;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;

/**
 * What {@link NumaMcsLock} offers beyond the {@link java.util.concurrent.locks.Lock} contract, and its memory
 * layout.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
public class NumaMcsLockTest {

    /** The span that must separate a hot field from any field another writer touches (a cache line pair). */
    private static final long PAD_BYTES = 128;

    @Test
    void newConditionGivesANewConditionOfTheLock() {
        NumaMcsLock lock = new NumaMcsLock(NodeLocator.singleNode());
        assertThat(lock.newCondition()).isInstanceOf(QueueCondition.class).isNotSameAs(lock.newCondition());
    }

    @Test
    void ownerQueriesFollowHoldsOfTheCallingThread() throws Exception {
        NumaMcsLock lock = new NumaMcsLock(new ThreadIdNodes(2));
        assertThat(lock.isLocked()).isFalse();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        assertThat(lock.getHoldCount()).isZero();
        lock.lock();
        lock.lock();
        assertThat(lock.isLocked()).isTrue();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        assertThat(lock.getHoldCount()).isEqualTo(2);
        boolean[] seenByOther = new boolean[3];
        Thread other = Thread.ofVirtual().start(() -> {
            seenByOther[0] = lock.isLocked();
            seenByOther[1] = lock.isHeldByCurrentThread();
            seenByOther[2] = lock.getHoldCount() == 0;
        });
        other.join(ConcurrencySupport.PROMPT);
        assertThat(seenByOther).as("locked, held by other, other's count is 0").containsExactly(true, false, true);
        lock.unlock();
        assertThat(lock.getHoldCount()).isEqualTo(1);
        assertThat(lock.isLocked()).isTrue();
        lock.unlock();
        assertThat(lock.isLocked()).isFalse();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        assertThat(lock.getHoldCount()).isZero();
    }

    @Test
    void toStringNamesStateOwnerAndQueues() throws Exception {
        NumaMcsLock lock = new NumaMcsLock(new ThreadIdNodes(3));
        assertThat(lock).hasToString(lock.toString());
        assertThat(lock.toString()).contains("NumaMcsLock").contains("Unlocked").contains("queues=3");
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread owner = Thread.ofVirtual().name("the-owner").start(() -> {
            lock.lock();
            try {
                held.countDown();
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                lock.unlock();
            }
        });
        held.await();
        assertThat(lock.toString()).contains("Locked by thread the-owner").doesNotContain("Unlocked");
        release.countDown();
        owner.join(ConcurrencySupport.PROMPT);
        assertThat(lock.toString()).contains("Unlocked");
    }

    @Test
    void hasOneQueuePerNode() {
        assertThat(new NumaMcsLock(NodeLocator.singleNode()).queueCount()).isEqualTo(1);
        assertThat(new NumaMcsLock(new ThreadIdNodes(4)).queueCount()).isEqualTo(4);
    }

    @Test
    void constructorRejectsNullAndEmptyLocators() {
        assertThatThrownBy(() -> new NumaMcsLock(null)).isInstanceOf(NullPointerException.class);
        NodeLocator none = new NodeLocator() {
            @Override
            public int nodeCount() {
                return 0;
            }

            @Override
            public int currentNode() {
                return 0;
            }
        };
        assertThatThrownBy(() -> new NumaMcsLock(none))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nodeCount");
    }

    @Test
    void reservationThresholdDefaultsToOneMillisecondAndRejectsNegativeOrNull() {
        assertThat(new NumaMcsLock(NodeLocator.singleNode()).reserveAfter()).isEqualTo(Duration.ofMillis(1));
        assertThat(new NumaMcsLock(NodeLocator.singleNode(), Duration.ZERO).reserveAfter())
                .isZero();
        assertThat(new NumaMcsLock(NodeLocator.singleNode(), Duration.ofDays(365 * 1000L)).reserveAfter())
                .as("saturated, not overflowed")
                .isEqualTo(Duration.ofNanos(Long.MAX_VALUE));
        assertThatThrownBy(() -> new NumaMcsLock(NodeLocator.singleNode(), Duration.ofNanos(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reserveAfter");
        assertThatThrownBy(() -> new NumaMcsLock(NodeLocator.singleNode(), null))
                .isInstanceOf(NullPointerException.class);
    }

    /**
     * A waiter woken past the reservation threshold while the lock is still held reserves it: the
     * owner's release then leaves it to that waiter, and a barger's tryLock fails in between
     * (without the reservation the barger would win: the waiter needs microseconds to run).
     */
    @ParameterizedTest(name = "{0} waiter")
    @EnumSource(ThreadKind.class)
    void aWaiterPastTheReservationThresholdReservesTheLockAgainstBargers(ThreadKind kind) throws Exception {
        NumaMcsLock lock = new NumaMcsLock(NodeLocator.singleNode());
        CountDownLatch acquired = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (Workers workers = new Workers(lock)) {
            lock.lock();
            Thread waiter = workers.start(kind, "waiter", () -> {
                lock.lock();
                acquired.countDown();
                release.await();
                lock.unlock();
            });
            assertThat(awaitParkedOrDone(waiter, PROMPT))
                    .as("waiter parks behind the owner")
                    .isTrue();
            assertThat(lock.isReserved()).as("not before the threshold").isFalse();
            Thread.sleep(5); // past the 1 ms threshold
            LockSupport.unpark(waiter); // a wake-up that finds the lock still taken
            long deadline = System.nanoTime() + PROMPT.toNanos();
            while (!lock.isReserved() && System.nanoTime() - deadline < 0) {
                Thread.sleep(1);
            }
            assertThat(lock.isReserved()).as("the waiter reserved the lock").isTrue();
            assertThat(lock.toString()).contains("Reserved by thread waiter");

            lock.unlock();
            assertThat(lock.tryLock())
                    .as("a barger's tryLock right after the owner's release")
                    .isFalse();
            assertThat(acquired.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS))
                    .as("the waiter got the lock")
                    .isTrue();
            assertThat(lock.isReserved())
                    .as("the reservation ends with the acquisition")
                    .isFalse();
            release.countDown();
            workers.joinAll(PROMPT);
        }
        assertThat(lock.tryLock()).isTrue();
        lock.unlock();
    }

    /**
     * With a zero threshold every parked leader reserves; timeouts and interrupts of reserving leaders still
     * leave a working lock.
     */
    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void reservingLeadersThatGiveUpLeaveTheLockUsable(ThreadKind kind) throws Exception {
        NumaMcsLock lock = new NumaMcsLock(new ThreadIdNodes(2), Duration.ZERO);
        int threads = 16;
        AtomicInteger acquired = new AtomicInteger();
        AtomicInteger gaveUp = new AtomicInteger();
        try (Workers workers = new Workers(lock)) {
            lock.lock();
            List<Thread> waiters = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                waiters.add(workers.start(kind, "timed-" + i, () -> {
                    if (lock.tryLock(30, TimeUnit.MILLISECONDS)) {
                        acquired.incrementAndGet();
                        lock.unlock();
                    } else {
                        gaveUp.incrementAndGet();
                    }
                }));
            }
            for (Thread waiter : waiters) {
                waiter.join(PROMPT);
            }
            assertThat(gaveUp)
                    .as("every timed waiter gave up while the lock was held")
                    .hasValue(threads);
            assertThat(lock.isLocked()).isTrue();
            Thread late = workers.start(kind, "late", () -> {
                lock.lock();
                acquired.incrementAndGet();
                lock.unlock();
            });
            assertThat(awaitParkedOrDone(late, PROMPT)).isTrue();
            lock.unlock();
            workers.joinAll(PROMPT);
        }
        assertThat(acquired)
                .as("the late waiter got the lock after the holder released it")
                .hasValue(1);
        assertThat(lock.tryLock()).as("no reservation is left behind").isTrue();
        lock.unlock();
    }

    @Test
    void reentrancyBeyondTheFirstHoldNeedsNoQueue() {
        NumaMcsLock lock = new NumaMcsLock(NodeLocator.singleNode());
        int depth = 10_000;
        for (int i = 0; i < depth; i++) {
            lock.lock();
        }
        assertThat(lock.getHoldCount()).isEqualTo(depth);
        for (int i = 0; i < depth; i++) {
            lock.unlock();
        }
        assertThat(lock.isLocked()).isFalse();
    }

    // ---------------------------------------------------------------- layout (after JCTools PadClassAssertions)

    @Test
    void lockStateIsPaddedFromEveryOtherField() {
        assertHotFieldsPadded(NumaMcsLock.class, "state");
    }

    @Test
    void nodeQueueTailIsPaddedFromEveryOtherField() {
        assertHotFieldsPadded(NodeQueue.class, "tail");
    }

    /**
     * The fields declared together with {@code hotField} (its class in the padding chain, and the
     * {@code sameBlock} classes, by simple name, between the same two pads) must be at least
     * {@link #PAD_BYTES} away from every field declared elsewhere, except padding, and from both
     * ends of the object, so neither another field of the object nor a neighbouring object on the
     * heap shares their cache line pair.
     */
    public static void assertHotFieldsPadded(Class<?> type, String hotField, String... sameBlock) {
        ClassLayout layout = ClassLayout.parseClass(type);
        String printable = layout.toPrintable();
        List<FieldLayout> fields = List.copyOf(layout.fields());
        FieldLayout anchor = fields.stream()
                .filter(f -> f.name().equals(hotField))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no field '" + hotField + "' in\n" + printable));
        java.util.function.Predicate<FieldLayout> inBlock = f -> f.hostClass().equals(anchor.hostClass())
                || java.util.Arrays.stream(sameBlock)
                        .anyMatch(c -> f.hostClass().equals(c) || f.hostClass().endsWith("." + c));
        List<FieldLayout> hot = fields.stream().filter(inBlock).toList();
        List<FieldLayout> others =
                fields.stream().filter(f -> !inBlock.test(f) && !isPadding(f)).toList();
        long hotStart = hot.stream().mapToLong(FieldLayout::offset).min().orElseThrow();
        long hotEnd = hot.stream().mapToLong(f -> f.offset() + f.size()).max().orElseThrow();

        assertThat(hotStart)
                .as("bytes before the hot block %s of %s\n%s", names(hot), type.getSimpleName(), printable)
                .isGreaterThanOrEqualTo(PAD_BYTES);
        assertThat(layout.instanceSize() - hotEnd)
                .as("bytes after the hot block %s of %s\n%s", names(hot), type.getSimpleName(), printable)
                .isGreaterThanOrEqualTo(PAD_BYTES);
        for (FieldLayout other : others) {
            long gap = other.offset() >= hotEnd ? other.offset() - hotEnd : hotStart - (other.offset() + other.size());
            assertThat(gap)
                    .as(
                            "gap between %s and the hot block %s of %s\n%s",
                            other.name(), names(hot), type.getSimpleName(), printable)
                    .isGreaterThanOrEqualTo(PAD_BYTES);
        }
        // The padding must really be there: at least PAD_BYTES of pad fields on each side.
        long padBefore = fields.stream()
                .filter(f -> isPadding(f) && f.offset() < hotStart)
                .mapToLong(FieldLayout::size)
                .sum();
        long padAfter = fields.stream()
                .filter(f -> isPadding(f) && f.offset() >= hotEnd)
                .mapToLong(FieldLayout::size)
                .sum();
        assertThat(padBefore)
                .as("pad bytes before the hot block\n%s", printable)
                .isGreaterThanOrEqualTo(PAD_BYTES);
        assertThat(padAfter).as("pad bytes after the hot block\n%s", printable).isGreaterThanOrEqualTo(PAD_BYTES);
    }

    private static boolean isPadding(FieldLayout field) {
        return field.hostClass().endsWith("Pad");
    }

    private static List<String> names(List<FieldLayout> fields) {
        return fields.stream().map(FieldLayout::name).toList();
    }
}
