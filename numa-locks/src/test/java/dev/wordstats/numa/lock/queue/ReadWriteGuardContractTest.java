package dev.wordstats.numa.lock.queue;

import static dev.wordstats.numa.lock.ConcurrencySupport.DURATION_MILLIS;
import static dev.wordstats.numa.lock.ConcurrencySupport.PROMPT;
import static dev.wordstats.numa.lock.ConcurrencySupport.awaitParkedOrDone;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.lock.ConcurrencySupport;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadIdNodes;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.TestLocks;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The read and write sections of {@link Guard}, for every {@link LockType} on virtual and platform
 * threads: write sections exclude every section, read sections of a reader-writer type overlap and never
 * see a write half done, a writer waits for the readers inside and is not starved by a stream of new
 * ones, nested sections run inline and an upgrade is refused. Bounded by {@link ConcurrencySupport}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReadWriteGuardContractTest {

    static Stream<Arguments> typesAndKinds() {
        return TestLocks.types()
                .flatMap(type -> Arrays.stream(ThreadKind.values()).map(kind -> Arguments.of(type, kind)));
    }

    static Stream<Arguments> readWriteTypesAndKinds() {
        return typesAndKinds().filter(a -> ((LockType) a.get()[0]).isReadWrite());
    }

    /**
     * The reader-writer types that bound a writer's wait under a stream of readers: not {@link
     * LockType#STAMPED}, whose JDK lock has no such policy ("does not consistently prefer readers over
     * writers or vice versa"), and which this test has seen keep a writer out for its whole bound.
     */
    static Stream<Arguments> writerBoundingTypesAndKinds() {
        return readWriteTypesAndKinds().filter(a -> a.get()[0] != LockType.STAMPED);
    }

    private static Guard newGuard(LockType type) {
        return TestLocks.guard(type, new ThreadIdNodes(2));
    }

    /** Written by write sections only, in two steps; a read section that sees them differ saw a write half done. */
    private static final class Pair {
        long first; // plain on purpose: only the guard orders these
        long second;
    }

    @Tag(TestLocks.EVERY_TYPE)
    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("typesAndKinds")
    void writeSectionsExcludeEverySectionAndReadsSeeWholeWrites(LockType type, ThreadKind kind) throws Exception {
        Guard guard = newGuard(type);
        Pair pair = new Pair();
        AtomicInteger writersInside = new AtomicInteger();
        AtomicInteger readersInside = new AtomicInteger();
        Queue<String> violations = new ConcurrentLinkedQueue<>();
        LongAdder writes = new LongAdder();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DURATION_MILLIS);
        try (Workers workers = new Workers(guard)) {
            for (int t = 0; t < kind.stressThreads(); t++) {
                boolean writer = t % 4 == 0;
                workers.start(kind, (writer ? "writer-" : "reader-") + t, () -> {
                    for (int i = 0; System.nanoTime() < end; i++) {
                        if (writer) {
                            guard.write(() -> {
                                if (writersInside.incrementAndGet() != 1 || readersInside.get() != 0) {
                                    violations.add("a write section beside another section");
                                }
                                long v = pair.first + 1;
                                pair.first = v;
                                Thread.onSpinWait();
                                pair.second = v;
                                writersInside.decrementAndGet();
                                return null;
                            });
                            writes.increment();
                        } else {
                            guard.read(() -> {
                                readersInside.incrementAndGet();
                                if (writersInside.get() != 0) {
                                    violations.add("a read section beside a write section");
                                }
                                if (pair.first != pair.second) {
                                    violations.add("a read section saw a write half done");
                                }
                                readersInside.decrementAndGet();
                                return null;
                            });
                        }
                        if (i % 64 == 0) {
                            Thread.yield();
                        }
                    }
                });
            }
            workers.joinAll(PROMPT.plusMillis(DURATION_MILLIS));
        }
        assertThat(violations).isEmpty();
        assertThat(pair.first).isEqualTo(writes.sum()).isEqualTo(pair.second);
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("readWriteTypesAndKinds")
    void readSectionsRunAtTheSameTime(LockType type, ThreadKind kind) throws Exception {
        Guard guard = newGuard(type);
        int readers = 3;
        CountDownLatch allInside = new CountDownLatch(readers);
        AtomicBoolean met = new AtomicBoolean(true);
        try (Workers workers = new Workers(guard)) {
            for (int t = 0; t < readers; t++) {
                workers.start(
                        kind,
                        "reader-" + t,
                        () -> guard.read(() -> {
                            allInside.countDown();
                            try {
                                if (!allInside.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)) {
                                    met.set(false);
                                }
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                                met.set(false);
                            }
                            return null;
                        }));
            }
            workers.joinAll(PROMPT.multipliedBy(2));
        }
        assertThat(met).as("every reader inside at once").isTrue();
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("readWriteTypesAndKinds")
    void aWriterWaitsForTheReaderInsideAndEntersWhenItLeaves(LockType type, ThreadKind kind) throws Exception {
        Guard guard = newGuard(type);
        CountDownLatch readerInside = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        AtomicBoolean readerLeft = new AtomicBoolean();
        AtomicBoolean writerSawReaderGone = new AtomicBoolean();
        try (Workers workers = new Workers(guard)) {
            workers.start(
                    kind,
                    "reader",
                    () -> guard.read(() -> {
                        readerInside.countDown();
                        try {
                            leave.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        readerLeft.set(true);
                        return null;
                    }));
            assertThat(readerInside.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS))
                    .isTrue();
            Thread writer =
                    workers.start(kind, "writer", () -> guard.run(() -> writerSawReaderGone.set(readerLeft.get())));
            assertThat(awaitParkedOrDone(writer, PROMPT)).isTrue();
            assertThat(writer.isAlive())
                    .as("the writer waits while the reader is inside")
                    .isTrue();
            leave.countDown();
            workers.joinAll(PROMPT);
        }
        assertThat(writerSawReaderGone).isTrue();
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("writerBoundingTypesAndKinds")
    void noWriterStarvesUnderAStreamOfReaders(LockType type, ThreadKind kind) throws Exception {
        Guard guard = newGuard(type);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger readersInside = new AtomicInteger();
        int readers = 4; // more readers than carriers: new ones arrive while others are inside
        try (Workers workers = new Workers(guard)) {
            CountDownLatch started = new CountDownLatch(readers);
            LongAdder writes = new LongAdder();
            boolean done;
            try {
                // started, and parked on the latch, before the readers, which wake it
                Thread writer = workers.start(kind, "writer", () -> {
                    started.await();
                    for (int i = 0; i < 20; i++) {
                        guard.write(() -> {
                            writes.increment();
                            return null;
                        });
                    }
                });
                assertThat(awaitParkedOrDone(writer, PROMPT))
                        .as("the writer waits for the readers to start")
                        .isTrue();
                for (int t = 0; t < readers; t++) {
                    workers.start(kind, "reader-" + t, () -> {
                        started.countDown();
                        while (!stop.get()) {
                            guard.read(() -> {
                                readersInside.incrementAndGet();
                                // overlapping read sections: readers inside at every moment. A park, not
                                // Thread.yield(): virtual threads that yield in a loop can keep a woken
                                // writer off every carrier, so it would wait for the scheduler, not the lock
                                LockSupport.parkNanos(50_000);
                                readersInside.decrementAndGet();
                                return null;
                            });
                        }
                    });
                }
                done = writer.join(PROMPT);
            } finally {
                stop.set(true);
            }
            workers.joinAll(PROMPT);
            assertThat(done)
                    .as("20 writes among a stream of readers, within " + PROMPT)
                    .isTrue();
            assertThat(writes.sum()).isEqualTo(20);
        }
    }

    @Tag(TestLocks.EVERY_TYPE)
    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("typesAndKinds")
    void nestedSectionsRunInlineAndAnUpgradeIsRefused(LockType type, ThreadKind kind) throws Exception {
        Guard guard = newGuard(type);
        try (Workers workers = new Workers(guard)) {
            workers.start(kind, "nester", () -> {
                assertThat(guard.write(() -> guard.read(() -> guard.write(() -> 1))))
                        .isEqualTo(1);
                assertThat(guard.read(() -> guard.read(() -> 2))).isEqualTo(2);
                if (type.isReadWrite()) {
                    assertThatThrownBy(() -> guard.read(() -> guard.write(() -> 3)))
                            .isInstanceOf(IllegalStateException.class);
                } else {
                    assertThat(guard.read(() -> guard.write(() -> 3))).isEqualTo(3);
                }
                // usable afterwards, from another thread too
                assertThat(guard.write(() -> 4)).isEqualTo(4);
            });
            workers.joinAll(PROMPT);
            Thread other = workers.start(
                    kind, "other", () -> assertThat(guard.write(() -> 5)).isEqualTo(5));
            assertThat(other.join(PROMPT)).isTrue();
            workers.joinAll(PROMPT);
        }
    }
}
