package dev.wordstats.benchmarks.readwrite;

import dev.wordstats.numa.lock.Guard;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * The counts the read/write benchmark reads and writes: {@code stripes} maps of word to count, word
 * {@code w} in stripe {@code w mod stripes}, every word counted once at the start. Reads and writes
 * report how long they waited before their section began ({@link #lastWaitNanos()}).
 */
abstract sealed class Stripes {

    /** The name of the copy-on-write bound among the {@code lockType} values. */
    static final String COPY_ON_WRITE = "COPY_ON_WRITE";

    final String[] words;
    final int stripeCount;

    Stripes(String[] words, int stripeCount) {
        this.words = words;
        this.stripeCount = stripeCount;
    }

    /** The stripe of word {@code w}. */
    final int stripeOf(int w) {
        return w % stripeCount;
    }

    /** A fresh map per stripe with each of its words counted once. */
    final Map<String, Long>[] initialMaps() {
        @SuppressWarnings("unchecked")
        Map<String, Long>[] maps = new Map[stripeCount];
        for (int s = 0; s < stripeCount; s++) {
            maps[s] = new HashMap<>();
        }
        for (int w = 0; w < words.length; w++) {
            maps[stripeOf(w)].put(words[w], 1L);
        }
        return maps;
    }

    /** Adds one to word {@code w}'s count. */
    abstract void increment(int w, Waits waits);

    /** Word {@code w}'s count (a short read, as {@code StripedCounts.get}). */
    abstract long get(int w, Waits waits);

    /** A copy of the stripe of word {@code w} (a whole-stripe read, as {@code StripedCounts.copyStripe}); its size. */
    abstract int copyStripeOf(int w, Waits waits);

    /** The sum of every count, read when no thread reads or writes any more. */
    abstract long total();

    /**
     * One worker's operation in flight: what its section works on, made once per worker so that a
     * section allocates nothing but what it returns, and the time from asking for the section to its
     * start. Written by the worker before each call, read and {@code waited} written in the section (on
     * whichever thread runs it), {@code waited} read by the worker once its call has returned: the guard
     * orders the three.
     */
    static final class Waits {
        long asked; // written by the worker before each call, read in its section
        long waited; // written in the section, read by the worker after the call
        Map<String, Long> map; // written by the worker before each call, read in its section
        String word; // written by the worker before each call, read in its section
        final Supplier<Long> merge = () -> {
            started();
            return map.merge(word, 1L, Long::sum);
        };
        final Supplier<Long> lookup = () -> {
            started();
            return map.get(word);
        };
        final Supplier<Map<String, Long>> copy = () -> {
            started();
            return new HashMap<>(map);
        };

        void begin() {
            asked = System.nanoTime();
        }

        void started() {
            waited = System.nanoTime() - asked;
        }
    }

    /** The stripes under guards of one lock type: writes in write sections, reads in read sections. */
    static final class Guarded extends Stripes {
        private final Guard[] guards;
        private final Map<String, Long>[] maps; // each guarded by guards[s]

        Guarded(String[] words, int stripeCount, IntFunction<Guard> guardFactory) {
            super(words, stripeCount);
            this.guards = new Guard[stripeCount];
            for (int s = 0; s < stripeCount; s++) {
                guards[s] = guardFactory.apply(s);
            }
            this.maps = initialMaps();
        }

        @Override
        void increment(int w, Waits waits) {
            int s = stripeOf(w);
            waits.map = maps[s];
            waits.word = words[w];
            waits.begin();
            guards[s].write(waits.merge);
        }

        @Override
        long get(int w, Waits waits) {
            int s = stripeOf(w);
            waits.map = maps[s];
            waits.word = words[w];
            waits.begin();
            Long count = guards[s].read(waits.lookup);
            return count == null ? 0 : count;
        }

        @Override
        int copyStripeOf(int w, Waits waits) {
            int s = stripeOf(w);
            waits.map = maps[s];
            waits.begin();
            return guards[s].read(waits.copy).size();
        }

        @Override
        long total() {
            long sum = 0;
            for (int s = 0; s < stripeCount; s++) {
                Map<String, Long> map = maps[s];
                sum += guards[s].read(
                        () -> map.values().stream().mapToLong(Long::longValue).sum());
            }
            return sum;
        }
    }

    /**
     * The bound for reads: a writer copies its stripe's map under the stripe's one lock, changes the
     * copy and publishes it; a reader reads the published map with no lock and never waits. Writes
     * pay a copy of the stripe each, so this bounds the reads, not the writers.
     */
    static final class CopyOnWrite extends Stripes {
        private final ReentrantLock[] writeLocks;
        private final Map<String, Long>[] published; // written by writers under writeLocks[s], read by anyone

        CopyOnWrite(String[] words, int stripeCount) {
            super(words, stripeCount);
            this.writeLocks = new ReentrantLock[stripeCount];
            for (int s = 0; s < stripeCount; s++) {
                writeLocks[s] = new ReentrantLock();
            }
            this.published = initialMaps();
        }

        @Override
        void increment(int w, Waits waits) {
            int s = stripeOf(w);
            ReentrantLock lock = writeLocks[s];
            waits.begin();
            lock.lock();
            try {
                waits.started();
                Map<String, Long> copy = new HashMap<>(publishedAcquire(s));
                copy.merge(words[w], 1L, Long::sum);
                setPublishedRelease(s, copy);
            } finally {
                lock.unlock();
            }
        }

        @Override
        long get(int w, Waits waits) {
            waits.begin();
            waits.started();
            Long count = publishedAcquire(stripeOf(w)).get(words[w]);
            return count == null ? 0 : count;
        }

        @Override
        int copyStripeOf(int w, Waits waits) {
            waits.begin();
            waits.started();
            return new HashMap<>(publishedAcquire(stripeOf(w))).size();
        }

        @Override
        long total() {
            long sum = 0;
            for (int s = 0; s < stripeCount; s++) {
                sum += publishedAcquire(s).values().stream()
                        .mapToLong(Long::longValue)
                        .sum();
            }
            return sum;
        }

        @SuppressWarnings("unchecked")
        private Map<String, Long> publishedAcquire(int s) {
            return (Map<String, Long>) PUBLISHED.getAcquire(published, s);
        }

        private void setPublishedRelease(int s, Map<String, Long> map) {
            PUBLISHED.setRelease(published, s, map);
        }

        private static final VarHandle PUBLISHED = MethodHandles.arrayElementVarHandle(Map[].class);
    }
}
