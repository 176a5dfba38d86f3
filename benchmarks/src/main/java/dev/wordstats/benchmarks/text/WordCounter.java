package dev.wordstats.benchmarks.text;

import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.counts.StripedCounts;
import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where the text statistics task counts words: a {@link StripedCounts} whose stripes are guarded by
 * the {@link dev.wordstats.numa.lock.Guard}s of one of the {@link LockType}s, or one of the two
 * lock-free stores a user would pick instead.
 */
interface WordCounter {

    void increment(String word);

    long total();

    /** {@code CHM_LONG_ADDER}, {@code CHM_MERGE}, or a {@link LockType} name. */
    static WordCounter create(String kind, int stripes, NodeLocator nodes) {
        return switch (kind) {
            case "CHM_LONG_ADDER" -> new LongAdders();
            case "CHM_MERGE" -> new Merging();
            default ->
                new Striped(new StripedCounts<>(
                        stripes,
                        i -> LockType.parse(kind)
                                .create(new LockContext(nodes, CarrierPinning.schedulerParallelism()))));
        };
    }

    record Striped(StripedCounts<String> counts) implements WordCounter {
        @Override
        public void increment(String word) {
            counts.increment(word);
        }

        @Override
        public long total() {
            return counts.total();
        }
    }

    /** {@code computeIfAbsent(word, new LongAdder).increment()}: lock-free once the word exists. */
    final class LongAdders implements WordCounter {
        private final ConcurrentHashMap<String, LongAdder> counts = new ConcurrentHashMap<>();

        @Override
        public void increment(String word) {
            LongAdder adder = counts.get(word);
            if (adder == null) {
                adder = counts.computeIfAbsent(word, w -> new LongAdder());
            }
            adder.increment();
        }

        @Override
        public long total() {
            return counts.values().stream().mapToLong(LongAdder::sum).sum();
        }
    }

    /** {@code merge(word, 1, Long::sum)}: one CAS or bin lock per word, boxing included. */
    final class Merging implements WordCounter {
        private final ConcurrentHashMap<String, Long> counts = new ConcurrentHashMap<>();

        @Override
        public void increment(String word) {
            counts.merge(word, 1L, Long::sum);
        }

        @Override
        public long total() {
            return counts.values().stream().mapToLong(Long::longValue).sum();
        }
    }
}
