package dev.wordstats.numa.counts;

import dev.wordstats.numa.lock.Guard;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * Counts per key in {@code N} plain {@link HashMap}s (N a power of two), each guarded by its own
 * {@link Guard}. A key's stripe is {@code spread(key.hashCode()) & (N - 1)}, so keys that hash alike
 * share a guard and a small vocabulary means high contention: the workload of the thesis this
 * project comes from.
 *
 * <p>Every access to a map is a critical section handed to its stripe's guard ({@link Guard#call}),
 * so it works with every lock type, including those that run a critical section on another thread.
 * Each operation holds one stripe at a time, never two, so there is no lock ordering to keep and no
 * deadlock. Whole-map reads ({@link #top}, {@link #total}) visit the stripes one by one: they are
 * exact for each stripe but not one instant across stripes.
 *
 * <p>A store may be given a cap on distinct keys: {@link #addAll(Map, long)} then either adds all of
 * a batch or, when the batch's new keys would pass the cap, none of it. The distinct count lives in
 * one {@link AtomicLong} that is written only when a batch brings keys the store has not seen, so
 * counting known keys never meets a shared counter, and {@link #size()} reads it without visiting
 * a stripe. Far from the cap a batch adds without reserving;
 * near it (when the batch's size could reach the cap) it first counts its new keys and reserves
 * their slots. So the cap is exact for one batch at a time, and batches racing at the moment the cap
 * is reached may pass it by at most the keys of those that took the reservation-free path.
 *
 * @param <K> the key type; keys must be immutable with stable {@code hashCode}/{@code equals}
 */
public final class StripedCounts<K> {

    private final Stripe<K>[] stripes;
    private final int mask;
    private final AtomicLong distinct =
            new AtomicLong(); // reserved + present distinct keys; CAS by adders, add by clear

    /**
     * @param stripeCount the number of stripes, a power of two from 1 to 2^16
     * @param guardFactory makes the guard of stripe {@code i}, e.g. {@code i -> type.create(context)}
     */
    @SuppressWarnings("unchecked")
    public StripedCounts(int stripeCount, IntFunction<? extends Guard> guardFactory) {
        if (stripeCount < 1 || stripeCount > (1 << 16) || Integer.bitCount(stripeCount) != 1) {
            throw new IllegalArgumentException("stripes must be a power of two from 1 to 65536, was " + stripeCount);
        }
        Objects.requireNonNull(guardFactory, "guardFactory");
        this.stripes = new Stripe[stripeCount];
        for (int i = 0; i < stripeCount; i++) {
            stripes[i] = new Stripe<>(Objects.requireNonNull(guardFactory.apply(i), "guard of stripe " + i));
        }
        this.mask = stripeCount - 1;
    }

    /** The number of stripes. */
    public int stripeCount() {
        return stripes.length;
    }

    /** The guard of stripe {@code i}. */
    public Guard guard(int i) {
        return stripes[i].guard;
    }

    /** The stripe that holds {@code key}. */
    public int stripeOf(K key) {
        return spread(key.hashCode()) & mask;
    }

    /** Adds one to the count of {@code key}. */
    public void increment(K key) {
        add(key, 1L);
    }

    /** Adds {@code delta} (at least 1) to the count of {@code key}. */
    public void add(K key, long delta) {
        Objects.requireNonNull(key, "key");
        requirePositive(delta);
        Stripe<K> stripe = stripes[stripeOf(key)];
        // The shared counter is touched after the critical section, not inside it.
        if (stripe.guard.call(() -> stripe.map.merge(key, delta, Long::sum) == delta)) {
            distinct.incrementAndGet();
        }
    }

    /** Adds one to each key's count, once per occurrence; each stripe is entered once. */
    public void incrementAll(Collection<? extends K> keys) {
        Map<K, Long> deltas = new HashMap<>();
        for (K key : keys) {
            deltas.merge(Objects.requireNonNull(key, "key"), 1L, Long::sum);
        }
        addAll(deltas, Long.MAX_VALUE);
    }

    /**
     * Adds every {@code (key, delta)} of {@code deltas} (deltas at least 1), entering each stripe
     * once, unless the keys not yet counted would take the store past {@code maxDistinct} distinct
     * keys: then nothing is added.
     *
     * @return {@code true} if the batch was added, {@code false} if the cap refused it
     */
    public boolean addAll(Map<? extends K, Long> deltas, long maxDistinct) {
        @SuppressWarnings("unchecked")
        List<Map.Entry<K, Long>>[] byStripe = new List[stripes.length];
        for (Map.Entry<? extends K, Long> e : deltas.entrySet()) {
            K key = Objects.requireNonNull(e.getKey(), "key");
            requirePositive(Objects.requireNonNull(e.getValue(), "delta"));
            int s = stripeOf(key);
            if (byStripe[s] == null) {
                byStripe[s] = new ArrayList<>();
            }
            byStripe[s].add(Map.entry(key, e.getValue()));
        }
        IntPredicate inBatch = s -> byStripe[s] != null;
        long unseen = 0;
        if (distinct.get() + deltas.size() > maxDistinct) {
            // Near the cap: count the new keys first and reserve their slots, or refuse.
            unseen = sumOverStripes(inBatch, (s, map) -> {
                long n = 0;
                for (Map.Entry<K, Long> e : byStripe[s]) {
                    if (!map.containsKey(e.getKey())) {
                        n++;
                    }
                }
                return n;
            });
            if (unseen > 0 && !reserve(unseen, maxDistinct)) {
                return false;
            }
        }
        long inserted = sumOverStripes(inBatch, (s, map) -> {
            long n = 0;
            for (Map.Entry<K, Long> e : byStripe[s]) {
                if (map.merge(e.getKey(), e.getValue(), Long::sum)
                        == e.getValue().longValue()) {
                    n++;
                }
            }
            return n;
        });
        // Keys another batch inserted meanwhile needed no slot; keys it cleared needed one more.
        if (inserted != unseen) {
            distinct.addAndGet(inserted - unseen);
        }
        return true;
    }

    /** The count of {@code key}, 0 when it was never added. */
    public long get(K key) {
        Objects.requireNonNull(key, "key");
        Stripe<K> stripe = stripes[stripeOf(key)];
        Long count = stripe.guard.call(() -> stripe.map.get(key));
        return count == null ? 0L : count;
    }

    /**
     * The {@code n} keys with the highest counts, highest first; equal counts in the order of
     * {@code tieBreak}.
     */
    public List<Map.Entry<K, Long>> top(int n, Comparator<? super K> tieBreak) {
        if (n < 0) {
            throw new IllegalArgumentException("n must not be negative, was " + n);
        }
        if (n == 0) {
            return List.of();
        }
        Comparator<Map.Entry<K, Long>> order = Comparator.comparing(
                        (Map.Entry<K, Long> e) -> e.getValue(), Comparator.reverseOrder())
                .thenComparing(Map.Entry::getKey, tieBreak);
        // Filled inside the critical sections; each call's return makes its writes visible here.
        PriorityQueue<Map.Entry<K, Long>> worstFirst = new PriorityQueue<>(n + 1, order.reversed());
        sumOverStripes(ALL, (s, map) -> {
            for (Map.Entry<K, Long> e : map.entrySet()) {
                if (worstFirst.size() < n) {
                    worstFirst.add(Map.entry(e.getKey(), e.getValue()));
                } else if (order.compare(e, worstFirst.peek()) < 0) {
                    worstFirst.poll();
                    worstFirst.add(Map.entry(e.getKey(), e.getValue()));
                }
            }
            return 0;
        });
        List<Map.Entry<K, Long>> result = new ArrayList<>(worstFirst);
        result.sort(order);
        return result;
    }

    /**
     * The number of distinct keys counted, read from the distinct counter without entering a
     * stripe. Exact whenever no write is under way; while writes run it may include the slots a
     * batch near the cap has reserved but not yet filled, and miss keys a batch has inserted but
     * not yet added to the counter.
     */
    public long size() {
        return distinct.get();
    }

    /** The sum of all counts. */
    public long total() {
        return sumOverStripes(ALL, (s, map) -> {
            long sum = 0;
            for (long count : map.values()) {
                sum += count;
            }
            return sum;
        });
    }

    /**
     * A copy of stripe {@code i}'s keys and counts, taken in one critical section of its guard, so
     * it is exact for that stripe at one instant; the caller may then use it (e.g. write it to a
     * file) without holding any lock. Copying every stripe in turn gives a state in which no count
     * is above what was added, but not one instant across stripes.
     */
    public Map<K, Long> copyStripe(int i) {
        Stripe<K> stripe = stripes[Objects.checkIndex(i, stripes.length)];
        return stripe.guard.call(() -> new HashMap<>(stripe.map));
    }

    /** Removes every key, stripe by stripe. */
    public void clear() {
        sumOverStripes(ALL, (s, map) -> {
            int removed = map.size();
            map.clear();
            distinct.addAndGet(-removed);
            return removed;
        });
    }

    /** Every stripe. */
    private static final IntPredicate ALL = s -> true;

    /** A critical section on one stripe's map: {@code s} is the stripe's index. */
    @FunctionalInterface
    private interface StripeSection<K> {
        long apply(int s, HashMap<K, Long> map);
    }

    /**
     * The one loop over stripes: for each stripe {@code s} (in index order) that {@code visit}
     * accepts, runs {@code section} on its map as a critical section of its guard, one stripe at a
     * time, and returns the sum of what the sections returned.
     */
    private long sumOverStripes(IntPredicate visit, StripeSection<K> section) {
        long sum = 0;
        for (int s = 0; s < stripes.length; s++) {
            if (visit.test(s)) {
                Stripe<K> stripe = stripes[s];
                int index = s;
                sum += stripe.guard.call(() -> section.apply(index, stripe.map));
            }
        }
        return sum;
    }

    private boolean reserve(long slots, long maxDistinct) {
        long current;
        do {
            current = distinct.get();
            if (current + slots > maxDistinct) {
                return false;
            }
        } while (!distinct.compareAndSet(current, current + slots));
        return true;
    }

    private static void requirePositive(long delta) {
        if (delta < 1) {
            throw new IllegalArgumentException("delta must be at least 1, was " + delta);
        }
    }

    /** Spreads higher hash bits into the low ones, as {@code HashMap.hash} does. */
    static int spread(int h) {
        return h ^ (h >>> 16);
    }

    /** One stripe: a plain map and the guard whose critical sections alone touch it. */
    private static final class Stripe<K> {
        final Guard guard;
        final HashMap<K, Long> map = new HashMap<>(); // read and written only in critical sections of guard

        Stripe(Guard guard) {
            this.guard = guard;
        }
    }
}
