package dev.wordstats.numa.lock.queue;

import static dev.wordstats.numa.lock.ConcurrencySupport.PROMPT;
import static dev.wordstats.numa.lock.ConcurrencySupport.awaitParkedOrDone;
import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.CombiningSettings;
import dev.wordstats.numa.lock.ConcurrencySupport;
import dev.wordstats.numa.lock.ConcurrencySupport.AssignedNodes;
import dev.wordstats.numa.lock.ConcurrencySupport.Holder;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.MonitorLockSettings;
import dev.wordstats.numa.lock.QueueLockSettings;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.lock.probe.LockProbe;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReadWriteLock;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What is particular to {@link LockType#NUMA_RW}: readers of a node announce themselves on their node only,
 * and a writer's bound counts from when it queued.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class NumaRwLockTest {

    /** The readers announced on each node's indicator, read after the threads that wrote them synchronized with us. */
    private static int[] announced(Guard guard) throws ReflectiveOperationException {
        Field partsField = NumaRwLock.class.getDeclaredField("parts");
        partsField.setAccessible(true);
        Object parts = partsField.get(guard);
        Method indicators = parts.getClass().getDeclaredMethod("indicators");
        indicators.setAccessible(true);
        NumaRwIndicator[] array = (NumaRwIndicator[]) indicators.invoke(parts);
        int[] counts = new int[array.length];
        for (int i = 0; i < array.length; i++) {
            counts[i] = array[i].readers;
        }
        return counts;
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void readersOfEachNodeTouchOnlyTheirNodesIndicator(ThreadKind kind) throws Exception {
        AssignedNodes nodes = new AssignedNodes(2);
        Guard guard = TestLocks.guard(LockType.NUMA_RW, nodes);
        assertThat(guard).isInstanceOf(NumaRwLock.class);
        for (int node = 0; node < 2; node++) {
            int readerNode = node;
            int readers = 3;
            CountDownLatch inside = new CountDownLatch(readers);
            CountDownLatch seen = new CountDownLatch(1);
            try (Workers workers = new Workers(guard)) {
                for (int t = 0; t < readers; t++) {
                    workers.start(kind, "reader-" + node + "-" + t, () -> {
                        nodes.assign(readerNode);
                        guard.read(() -> {
                            inside.countDown();
                            try {
                                seen.await();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            return null;
                        });
                    });
                }
                assertThat(inside.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS))
                        .isTrue();
                int[] counts = announced(guard);
                assertThat(counts[readerNode])
                        .as("node %d's indicator", readerNode)
                        .isEqualTo(readers);
                assertThat(counts[1 - readerNode])
                        .as("the other node's indicator")
                        .isZero();
                seen.countDown();
                workers.joinAll(PROMPT);
            }
            assertThat(announced(guard)).containsExactly(0, 0);
        }
    }

    /**
     * With a zero bound a writer that queues is past it at once: a reader that the first writer's release
     * wakes must not enter before the writer queued behind it (parked in the writers' queue, not yet at the
     * door) has written.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aReaderArrivingBehindAQueuedWriterPastTheBoundWaitsForItsWrite(ThreadKind kind) throws Exception {
        LockSettings settings = new LockSettings(
                new QueueLockSettings(Duration.ZERO), CombiningSettings.DEFAULTS, MonitorLockSettings.DEFAULTS);
        Guard guard = LockType.NUMA_RW.create(TestLocks.context(new AssignedNodes(1)), settings, LockProbe.NONE);
        ReadWriteLock rw = (ReadWriteLock) guard;
        int[] value = {0}; // plain: only the guard orders it
        int[] seen = {-1};
        try (Workers workers = new Workers(guard)) {
            Holder first = ConcurrencySupport.hold(rw.writeLock(), kind, workers);
            Thread second = workers.start(kind, "queued-writer", () -> guard.write(() -> value[0] = 2));
            assertThat(awaitParkedOrDone(second, PROMPT))
                    .as("the second writer waits in the writers' queue")
                    .isTrue();
            Thread reader = workers.start(kind, "reader", () -> seen[0] = guard.read(() -> value[0]));
            assertThat(awaitParkedOrDone(reader, PROMPT))
                    .as("the reader waits at the closed door")
                    .isTrue();
            first.release();
            workers.joinAll(PROMPT);
        }
        assertThat(seen[0])
                .as("what the reader read: the queued writer's write")
                .isEqualTo(2);
    }
}
