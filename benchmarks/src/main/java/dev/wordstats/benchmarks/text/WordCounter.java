package dev.wordstats.benchmarks.text;

import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.counts.StripedCounts;
import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where the text statistics task counts words: a {@link StripedCounts} whose stripes are guarded by
 * the {@link dev.wordstats.numa.lock.Guard}s of one of the {@link LockType}s, or one of the
 * lock-free stores a user would pick instead, and the cheapest lock ({@link TextStatsBenchmark#BOUNDS}).
 *
 * <p>Worker {@code t} counts into {@link #sink(int) sink(t)}: the shared store itself, or for
 * {@code PER_THREAD_MAPS} its own map. When every worker has ended, {@link #finish()} does what is
 * left (merging the per-thread maps, inside the timed part), then {@link #total()} is exact.
 */
public interface WordCounter {

    /** What a worker counts into. */
    interface Sink {
        /** One critical section (or one lock-free update) for one occurrence of {@code word}. */
        void increment(String word);

        /** Every {@code (word, delta)} of a line's pre-aggregated counts: each stripe entered once. */
        void addAll(Map<String, Long> deltas);
    }

    /**
     * A worker's part of the task: takes the next line off {@code cursor} until none is left, splits
     * it (outside any lock) and counts it into {@code sink}, a critical section per word, or with
     * {@code perLine} the line's words merged into a small map first and then one per stripe it touches.
     */
    static void countLines(List<String> text, AtomicInteger cursor, Sink sink, boolean perLine) {
        if (perLine) {
            Map<String, Long> deltas = new HashMap<>();
            for (int i = cursor.getAndIncrement(); i < text.size(); i = cursor.getAndIncrement()) {
                deltas.clear();
                ZipfText.forEachWord(text.get(i), w -> deltas.merge(w, 1L, Long::sum));
                sink.addAll(deltas);
            }
        } else {
            for (int i = cursor.getAndIncrement(); i < text.size(); i = cursor.getAndIncrement()) {
                ZipfText.forEachWord(text.get(i), sink::increment);
            }
        }
    }

    /** Where worker {@code worker} (0 to workers-1) counts. */
    Sink sink(int worker);

    /** Called once after every worker ended and before {@link #total()}; the time it takes is measured. */
    default void finish() {}

    long total();

    /**
     * {@code CHM_LONG_ADDER}, {@code CHM_MERGE}, {@code PER_THREAD_MAPS}, {@code SPIN_BOUND} (the stripes
     * under {@link SpinBound}, the cheapest lock: a bound, not a lock to use) or a {@link LockType} name.
     *
     * @param workers how many workers will count ({@code PER_THREAD_MAPS} makes one map each)
     */
    static WordCounter create(String kind, int stripes, int workers, NodeLocator nodes) {
        return switch (kind) {
            case "CHM_LONG_ADDER" -> new LongAdders();
            case "CHM_MERGE" -> new Merging();
            case "PER_THREAD_MAPS" -> new PerThreadMaps(workers);
            case "SPIN_BOUND" -> new Striped(new StripedCounts<>(stripes, i -> new SpinBound()));
            default ->
                new Striped(new StripedCounts<>(
                        stripes,
                        i -> LockType.parse(kind)
                                .create(new LockContext(nodes, CarrierPinning.schedulerParallelism()))));
        };
    }

    /** A store every worker shares: its own sink. */
    interface Shared extends WordCounter, Sink {
        @Override
        default Sink sink(int worker) {
            return this;
        }
    }

    /** The service's store: an increment enters the word's stripe; a line enters each stripe it touches once. */
    record Striped(StripedCounts<String> counts) implements Shared {
        @Override
        public void increment(String word) {
            counts.increment(word);
        }

        @Override
        public void addAll(Map<String, Long> deltas) {
            counts.addAll(deltas, Long.MAX_VALUE);
        }

        @Override
        public long total() {
            return counts.total();
        }
    }

    /** {@code computeIfAbsent(word, new LongAdder).add(n)}: lock-free once the word exists. */
    final class LongAdders implements Shared {
        private final ConcurrentHashMap<String, LongAdder> counts = new ConcurrentHashMap<>();

        @Override
        public void increment(String word) {
            adder(word).increment();
        }

        @Override
        public void addAll(Map<String, Long> deltas) {
            deltas.forEach((word, delta) -> adder(word).add(delta));
        }

        private LongAdder adder(String word) {
            LongAdder adder = counts.get(word);
            return adder != null ? adder : counts.computeIfAbsent(word, w -> new LongAdder());
        }

        @Override
        public long total() {
            return counts.values().stream().mapToLong(LongAdder::sum).sum();
        }
    }

    /** {@code merge(word, n, Long::sum)}: one CAS or bin lock per word, boxing included. */
    final class Merging implements Shared {
        private final ConcurrentHashMap<String, Long> counts = new ConcurrentHashMap<>();

        @Override
        public void increment(String word) {
            counts.merge(word, 1L, Long::sum);
        }

        @Override
        public void addAll(Map<String, Long> deltas) {
            deltas.forEach((word, delta) -> counts.merge(word, delta, Long::sum));
        }

        @Override
        public long total() {
            return counts.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /**
     * The bound no shared store reaches: each worker counts into its own plain {@code HashMap} (the same
     * {@code merge} a stripe does, with nothing shared), and {@link #finish()} merges the maps into one on
     * the calling thread.
     */
    final class PerThreadMaps implements WordCounter {
        private final Own[] own;
        private Map<String, Long> merged = Map.of(); // written by finish() on the benchmark thread

        PerThreadMaps(int workers) {
            own = new Own[workers];
            for (int t = 0; t < workers; t++) {
                own[t] = new Own();
            }
        }

        @Override
        public Sink sink(int worker) {
            return own[worker];
        }

        @Override
        public void finish() {
            // The workers' writes are visible here: the caller waited for each worker's end (a latch).
            Map<String, Long> all = new HashMap<>();
            for (Own map : own) {
                map.counts.forEach((word, n) -> all.merge(word, n, Long::sum));
            }
            merged = all;
        }

        @Override
        public long total() {
            return merged.values().stream().mapToLong(Long::longValue).sum();
        }

        /** One worker's map: written by that worker alone, read by {@link #finish()} after it ended. */
        private static final class Own implements Sink {
            final HashMap<String, Long> counts = new HashMap<>();

            @Override
            public void increment(String word) {
                counts.merge(word, 1L, Long::sum);
            }

            @Override
            public void addAll(Map<String, Long> deltas) {
                deltas.forEach((word, delta) -> counts.merge(word, delta, Long::sum));
            }
        }
    }
}
