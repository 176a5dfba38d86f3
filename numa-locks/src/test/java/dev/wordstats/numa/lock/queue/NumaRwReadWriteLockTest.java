package dev.wordstats.numa.lock.queue;

import static dev.wordstats.numa.lock.ConcurrencySupport.PROMPT;
import static dev.wordstats.numa.lock.ConcurrencySupport.awaitParkedOrDone;
import static dev.wordstats.numa.lock.ConcurrencySupport.hold;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.lock.ConcurrencySupport.Body;
import dev.wordstats.numa.lock.ConcurrencySupport.Holder;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadIdNodes;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.TestLocks;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The {@link ReadWriteLock} face of {@link LockType#NUMA_RW} (its write lock alone keeps the lock contract,
 * {@link NumaRwWriteLockContractTest}): readers get in while a writer awaits on a condition, a signalled
 * writer holds the write lock apart from readers, holds and sections nest, a downgrade keeps a read hold,
 * an upgrade and a read lock's condition are refused, and a writer that gives up leaves the door open.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class NumaRwReadWriteLockTest {

    private static NumaRwLock newLock() {
        return (NumaRwLock) TestLocks.guard(LockType.NUMA_RW, new ThreadIdNodes(2));
    }

    /** Runs {@code body} in a new thread of {@code kind} and waits for it, rethrowing its failure. */
    private static void inThread(ThreadKind kind, String name, Body body) throws InterruptedException {
        try (Workers workers = new Workers(name)) {
            workers.start(kind, name, body);
            workers.joinAll(PROMPT);
        }
    }

    /** Waits (bounded) until {@code flag} is set and the write lock is free: the writer awaits then. */
    private static void awaitAwaiting(Lock writeLock, AtomicBoolean flag) throws InterruptedException {
        long deadline = System.nanoTime() + PROMPT.toNanos();
        while (System.nanoTime() < deadline) {
            if (flag.get() && writeLock.tryLock()) {
                writeLock.unlock(); // set under the lock before the await: a free lock means it released it
                return;
            }
            Thread.sleep(1);
        }
        throw new AssertionError("writer did not start waiting");
    }

    @Test
    void guardOfTheTypeIsAReadWriteLock() {
        Guard guard = TestLocks.guard(LockType.NUMA_RW, new ThreadIdNodes(2));
        assertThat(LockType.NUMA_RW.isReadWriteLock()).isTrue();
        assertThat(guard).isInstanceOf(ReadWriteLock.class);
        ReadWriteLock rw = (ReadWriteLock) guard;
        assertThat(rw.readLock()).isSameAs(rw.readLock());
        assertThat(rw.writeLock()).isSameAs(rw.writeLock());
    }

    @Test
    void readLockNewConditionThrows() {
        assertThatThrownBy(() -> newLock().readLock().newCondition()).isInstanceOf(UnsupportedOperationException.class);
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void readUnlockWithoutAReadHoldThrows(ThreadKind kind) throws Exception {
        NumaRwLock rw = newLock();
        assertThatThrownBy(rw.readLock()::unlock).isInstanceOf(IllegalMonitorStateException.class);
        rw.readLock().lock();
        try {
            inThread(
                    kind,
                    "other",
                    () -> assertThatThrownBy(rw.readLock()::unlock)
                            .as("read unlock by a thread that holds no read hold")
                            .isInstanceOf(IllegalMonitorStateException.class));
        } finally {
            rw.readLock().unlock();
        }
        assertThatThrownBy(rw.readLock()::unlock).isInstanceOf(IllegalMonitorStateException.class);
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void readHoldsOverlapAndExcludeTheWriteLock(ThreadKind kind) throws Exception {
        NumaRwLock rw = newLock();
        try (Workers workers = new Workers(rw)) {
            Holder reader = hold(rw.readLock(), kind, workers);
            inThread(kind, "second reader", () -> {
                assertThat(rw.readLock().tryLock(PROMPT.toMillis(), TimeUnit.MILLISECONDS))
                        .as("a second read hold beside the first")
                        .isTrue();
                rw.readLock().unlock();
            });
            inThread(kind, "writer", () -> {
                assertThat(rw.writeLock().tryLock())
                        .as("write tryLock beside a reader")
                        .isFalse();
                assertThat(rw.writeLock().tryLock(20, TimeUnit.MILLISECONDS))
                        .as("timed write tryLock beside a reader")
                        .isFalse();
            });
            inThread(kind, "reader after the writer gave up", () -> {
                assertThat(rw.readLock().tryLock()).as("the door is open again").isTrue();
                rw.readLock().unlock();
            });
            reader.release();
            workers.joinAll(PROMPT);
        }
        inThread(kind, "writer", () -> {
            assertThat(rw.writeLock().tryLock())
                    .as("write tryLock once the readers left")
                    .isTrue();
            rw.writeLock().unlock();
        });
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void interruptedWriterWaitingForAReaderLeavesTheDoorOpen(ThreadKind kind) throws Exception {
        NumaRwLock rw = newLock();
        AtomicBoolean interrupted = new AtomicBoolean();
        try (Workers workers = new Workers(rw)) {
            Holder reader = hold(rw.readLock(), kind, workers);
            Thread writer = workers.start(kind, "writer", () -> {
                try {
                    rw.writeLock().lockInterruptibly();
                    rw.writeLock().unlock();
                } catch (InterruptedException e) {
                    interrupted.set(true);
                }
            });
            assertThat(awaitParkedOrDone(writer, PROMPT)).isTrue();
            Thread.sleep(20); // past the drain bound: the door closes
            writer.interrupt();
            assertThat(writer.join(PROMPT)).isTrue();
            assertThat(interrupted)
                    .as("the waiting writer gave up at the interrupt")
                    .isTrue();
            inThread(kind, "reader", () -> {
                assertThat(rw.readLock().tryLock()).as("the door is open again").isTrue();
                rw.readLock().unlock();
            });
            reader.release();
            workers.joinAll(PROMPT);
        }
        inThread(kind, "writer", () -> {
            assertThat(rw.writeLock().tryLock())
                    .as("the writers' queue is free again")
                    .isTrue();
            rw.writeLock().unlock();
        });
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void readersGetInWhileAWriterAwaitsOnACondition(ThreadKind kind) throws Exception {
        NumaRwLock rw = newLock();
        Lock write = rw.writeLock();
        Condition changed = write.newCondition();
        AtomicBoolean waiting = new AtomicBoolean();
        AtomicBoolean ready = new AtomicBoolean();
        AtomicInteger readsDuringTheWait = new AtomicInteger();
        try (Workers workers = new Workers(rw)) {
            workers.start(kind, "writer", () -> {
                write.lock();
                try {
                    waiting.set(true);
                    while (!ready.get()) {
                        changed.await();
                    }
                    assertThat(rw.writeLock().isHeldByCurrentThread()).isTrue();
                    assertThat(rw.writeLock().getHoldCount()).isEqualTo(1);
                } finally {
                    write.unlock();
                }
            });
            awaitAwaiting(write, waiting);
            for (int r = 0; r < 3; r++) {
                inThread(kind, "reader-" + r, () -> {
                    assertThat(rw.readLock().tryLock(PROMPT.toMillis(), TimeUnit.MILLISECONDS))
                            .as("read lock while the writer awaits")
                            .isTrue();
                    try {
                        readsDuringTheWait.incrementAndGet();
                    } finally {
                        rw.readLock().unlock();
                    }
                    rw.read(readsDuringTheWait::incrementAndGet);
                });
            }
            write.lock();
            try {
                ready.set(true);
                changed.signal();
            } finally {
                write.unlock();
            }
            workers.joinAll(PROMPT);
        }
        assertThat(readsDuringTheWait).hasValue(6);
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void signalledWriterHoldsTheWriteLockApartFromReaders(ThreadKind kind) throws Exception {
        NumaRwLock rw = newLock();
        Lock write = rw.writeLock();
        Condition changed = write.newCondition();
        AtomicBoolean waiting = new AtomicBoolean();
        AtomicBoolean ready = new AtomicBoolean();
        CountDownLatch woken = new CountDownLatch(1);
        CountDownLatch checked = new CountDownLatch(1);
        AtomicBoolean writerInside = new AtomicBoolean();
        AtomicBoolean readerSawTheWriter = new AtomicBoolean();
        try (Workers workers = new Workers(rw)) {
            workers.start(kind, "writer", () -> {
                write.lock();
                try {
                    waiting.set(true);
                    while (!ready.get()) {
                        changed.await();
                    }
                    writerInside.set(true);
                    woken.countDown();
                    checked.await();
                    writerInside.set(false);
                } finally {
                    write.unlock();
                }
            });
            awaitAwaiting(write, waiting);
            write.lock();
            try {
                ready.set(true);
                changed.signal();
            } finally {
                write.unlock();
            }
            assertThat(woken.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            inThread(kind, "reader trying", () -> {
                assertThat(rw.readLock().tryLock())
                        .as("read tryLock while the writer holds")
                        .isFalse();
                assertThat(rw.readLock().tryLock(20, TimeUnit.MILLISECONDS))
                        .as("timed read tryLock while the writer holds")
                        .isFalse();
            });
            Thread reader = workers.start(kind, "reader", () -> {
                rw.readLock().lock();
                try {
                    readerSawTheWriter.set(writerInside.get());
                } finally {
                    rw.readLock().unlock();
                }
            });
            assertThat(awaitParkedOrDone(reader, PROMPT)).isTrue();
            assertThat(reader.isAlive()).as("the reader waits for the writer").isTrue();
            checked.countDown();
            workers.joinAll(PROMPT);
        }
        assertThat(readerSawTheWriter).as("a reader inside with the writer").isFalse();
    }

    @Test
    void downgradeKeepsAReadHoldAndUpgradeIsRefused() throws Exception {
        NumaRwLock rw = newLock();
        rw.writeLock().lock();
        rw.readLock().lock();
        rw.writeLock().unlock();
        assertThat(rw.writeLock().isLocked()).isFalse();
        inThread(ThreadKind.VIRTUAL, "other", () -> {
            assertThat(rw.readLock().tryLock())
                    .as("a reader beside the downgraded holder")
                    .isTrue();
            rw.readLock().unlock();
            assertThat(rw.writeLock().tryLock())
                    .as("a writer beside the read hold")
                    .isFalse();
        });
        assertThatThrownBy(rw.writeLock()::lock).as("upgrade").isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(rw.writeLock()::tryLock).as("upgrade").isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> rw.write(() -> 1)).as("upgrade").isInstanceOf(IllegalStateException.class);
        rw.readLock().unlock();
        inThread(ThreadKind.VIRTUAL, "writer", () -> {
            assertThat(rw.writeLock().tryLock()).as("no read hold left behind").isTrue();
            rw.writeLock().unlock();
        });
    }

    @Test
    void holdsAndSectionsNestInEachOther() {
        NumaRwLock rw = newLock();
        rw.writeLock().lock();
        try {
            assertThat(rw.write(() -> rw.read(() -> rw.writeLock().getHoldCount())))
                    .as("sections inside a write hold run inline, a write section as one more hold")
                    .isEqualTo(2);
        } finally {
            rw.writeLock().unlock();
        }
        rw.write(() -> {
            assertThat(rw.writeLock().isHeldByCurrentThread()).isTrue();
            assertThat(rw.writeLock().tryLock()).isTrue();
            assertThat(rw.writeLock().getHoldCount()).isEqualTo(2);
            rw.writeLock().unlock();
            return null;
        });
        rw.read(() -> {
            assertThat(rw.readLock().tryLock())
                    .as("a read hold inside a read section")
                    .isTrue();
            rw.readLock().unlock();
            return null;
        });
        assertThat(rw.writeLock().isLocked()).isFalse();
        assertThatThrownBy(rw.writeLock()::unlock).isInstanceOf(IllegalMonitorStateException.class);
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    void awaitInsideAWriteSectionReleasesItAndTakesItBack(ThreadKind kind) throws Exception {
        NumaRwLock rw = newLock();
        Condition changed = rw.writeLock().newCondition();
        AtomicBoolean waiting = new AtomicBoolean();
        AtomicBoolean ready = new AtomicBoolean();
        try (Workers workers = new Workers(rw)) {
            workers.start(
                    kind,
                    "writer",
                    () -> rw.write(() -> {
                        waiting.set(true);
                        while (!ready.get()) {
                            changed.awaitUninterruptibly();
                        }
                        assertThat(rw.writeLock().isHeldByCurrentThread()).isTrue();
                        return null;
                    }));
            awaitAwaiting(rw.writeLock(), waiting);
            inThread(kind, "reader", () -> assertThat(rw.read(() -> 1)).isEqualTo(1));
            rw.write(() -> {
                ready.set(true);
                changed.signalAll();
                return null;
            });
            workers.joinAll(PROMPT);
        }
        assertThat(rw.writeLock().isLocked()).isFalse();
    }

    @Test
    void awaitInsideAReadHoldOfTheWriterThrowsAndKeepsTheLocks() {
        NumaRwLock rw = newLock();
        Condition changed = rw.writeLock().newCondition();
        rw.writeLock().lock();
        rw.readLock().lock();
        assertThatThrownBy(() -> changed.await(1, TimeUnit.MILLISECONDS)).isInstanceOf(IllegalStateException.class);
        assertThat(rw.writeLock().getHoldCount()).isEqualTo(1);
        rw.readLock().unlock();
        try {
            assertThat(changed.awaitNanos(1_000_000L))
                    .as("timed out, with the write lock back")
                    .isNotPositive();
            assertThat(rw.writeLock().getHoldCount()).isEqualTo(1);
            changed.signal(); // no waiter left queued
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        } finally {
            rw.writeLock().unlock();
        }
        assertThat(rw.writeLock().isLocked()).isFalse();
    }
}
