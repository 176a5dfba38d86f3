package dev.wordstats.numa.lock.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.ConcurrencySupport.CriticalSection;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadIdNodes;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * More spinning candidates than carriers must not hang {@link NumaMcsLock}. With as many simulated
 * nodes as the virtual-thread scheduler has carriers (or more), every carrier can be running a
 * node-queue leader that waits for the flag while the owner, a virtual thread that yielded inside
 * its critical section, waits for a carrier. Carriers are not time-sliced, so a leader that spun
 * on the flag without bound would keep the owner off every carrier forever; a lock that parks after
 * a bounded spin lets every thread finish.
 *
 * <p>Bounds: {@code wordstats.test.noHang.threads} virtual threads (default 200), each taking the
 * lock {@code wordstats.test.noHang.acquisitions} times (default 200), within
 * {@code wordstats.test.noHang.deadlineSeconds} (default 20).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NumaMcsLockNoHangTest {

    private static final int THREADS = Integer.getInteger("wordstats.test.noHang.threads", 200);
    private static final int ACQUISITIONS = Integer.getInteger("wordstats.test.noHang.acquisitions", 200);
    private static final int DEADLINE_SECONDS = Integer.getInteger("wordstats.test.noHang.deadlineSeconds", 20);

    /** The lock under test, one queue per node of {@code nodes}. */
    protected Lock newLock(NodeLocator nodes) {
        return new NumaMcsLock(nodes);
    }

    /** The virtual-thread scheduler's parallelism: its number of carriers. */
    static int carriers() {
        String configured = System.getProperty("jdk.virtualThreadScheduler.parallelism");
        return configured != null
                ? Integer.parseInt(configured)
                : Runtime.getRuntime().availableProcessors();
    }

    @ParameterizedTest(name = "{0} nodes per carrier")
    @ValueSource(ints = {1, 2})
    void virtualThreadsYieldingInsideTheLockAllFinishWithAsManyNodesAsCarriers(int nodesPerCarrier) throws Exception {
        int carriers = carriers();
        int nodes = Math.max(2, carriers * nodesPerCarrier);
        Lock lock = newLock(new ThreadIdNodes(nodes));
        CriticalSection section = new CriticalSection();
        Set<String> carriersSeen = ConcurrentHashMap.newKeySet();
        String context = lock + ", " + nodes + " nodes, " + carriers + " carriers";
        try (Workers workers = new Workers(context)) {
            for (int t = 0; t < THREADS; t++) {
                workers.start(ThreadKind.VIRTUAL, "no-hang-" + t, () -> {
                    for (int i = 0; i < ACQUISITIONS; i++) {
                        lock.lock();
                        try {
                            if (i == 0) {
                                carriersSeen.add(carrierOf(Thread.currentThread()));
                            }
                            section.enter(true); // Thread.yield() inside: the owner gives its carrier away
                        } finally {
                            lock.unlock();
                        }
                    }
                });
            }
            workers.joinAll(Duration.ofSeconds(DEADLINE_SECONDS));
        }
        assertThat(section.violations()).as(context).isEmpty();
        assertThat(section.counter()).as(context).isEqualTo((long) THREADS * ACQUISITIONS);
        assertThat(lock.tryLock())
                .as("free after every thread finished: %s", context)
                .isTrue();
        lock.unlock();
        // The premise of the test: no more carriers ran these threads than there are nodes.
        assertThat(carriersSeen)
                .as("carriers that ran the threads (%s)", context)
                .hasSizeBetween(1, nodes);
        System.out.printf(
                "no-hang: %d virtual threads x %d acquisitions on %d nodes, carriers seen %s%n",
                THREADS, ACQUISITIONS, nodes, carriersSeen);
    }

    /** "VirtualThread[#22,name]/runnable@ForkJoinPool-1-worker-1" -> "ForkJoinPool-1-worker-1". */
    private static String carrierOf(Thread virtual) {
        String text = virtual.toString();
        int at = text.lastIndexOf('@');
        return at < 0 ? text : text.substring(at + 1);
    }
}
