package example;

import dev.wordstats.numa.carrier.CarrierNodeLocator;
import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.topology.NodeLocator;
import dev.wordstats.numa.topology.Topology;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;

/** Counts one word from many virtual threads under a lock of numa-locks (numa-locks/README.md's example). */
public final class Example {

    private Example() {}

    /** Counts {@code word} once from each of {@code threads} virtual threads, under one lock of type {@code type}. */
    public static Map<String, Integer> count(LockType type, String word, int threads) {
        Topology topology = Topology.detect();
        NodeLocator nodes = CarrierNodeLocator.create(topology);
        Guard guard = type.create(new LockContext(nodes, Runtime.getRuntime().availableProcessors()));

        Map<String, Integer> counts = new HashMap<>();
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < threads; i++) {
                executor.submit(() -> guard.run(() -> counts.merge(word, 1, Integer::sum)));
            }
        }
        return counts;
    }

    public static void main(String[] args) {
        System.out.println(count(LockType.NUMA_MONITOR, "word", 10_000)); // {word=10000}
    }
}
