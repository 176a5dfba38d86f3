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
import java.util.function.Supplier;

/**
 * Counts per key in {@code N} plain {@link HashMap}s (N a power of two), each guarded by its own
 * {@link Guard}. A key's stripe is {@code spread(key.hashCode()) & (N - 1)}, so keys that hash alike
 * share a guard and a small vocabulary means high contention: the workload of the thesis this
 * project comes from.
 *
 * <p>Every access to a map is a critical section handed to its stripe's guard, so it works with every
 * lock type, including those that run a critical section on another thread: a read section
 * ({@link Guard#read}) for {@link #get}, {@link #top}, {@link #total}, {@link #copyStripe} and the
 * count of a batch's new keys near the cap, a write section ({@link Guard#write}) for every change, so
 * with a reader-writer type reads of one stripe run side by side and never beside its writers.
 * Each operation holds one stripe at a time, never two, so there is no lock ordering to keep and no
 * deadlock. Whole-map reads ({@link #top}, {@link #total}) visit the stripes one by one: they are
 * exact for each stripe but not one instant across stripes.
 *
 * <p>A store may be given a cap on distinct keys: {@link #addAll(Map, long)} then either adds all of
 * a batch or, when the batch's new keys would pass the cap, none of it. The distinct count lives in
 * one {@link AtomicLong} that holds the present keys plus the slots reserved for keys not yet
 * inserted; every capped write reserves before it adds, so the count never passes the cap under
 * any interleaving. Far from the cap (when the batch's size fits) a batch reserves a slot for each
 * of its keys in one CAS and gives back the slots its known keys did not need; near it, it first
 * counts its new keys (one visit of its stripes) and reserves those. A key found missing at insertion
 * that the count found present (a {@link #clear} removed it in between) takes one more slot if the
 * cap has one; if not, its delta is dropped, as if that clear had come after it. A group of writes
 * that must pass or fail together (the lines of one request) takes one {@link Reservation} for all
 * of them ({@link #tryReserve}, {@link #addAll(Map, StripedCounts.Reservation, long)}, {@link Reservation#close}).
 * Uncapped writes ({@link #incrementAll}, a cap of {@code Long.MAX_VALUE}) add without reserving.
 * Checked by {@code StripedCountsConcurrencyTest.concurrentCappedBatchesAreAllOrNothing} and
 * {@code StripedCountsConcurrencyTest.reservedBatchesRacingAtTheCapNeverPassIt}.
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
     * keys: then nothing is added. With {@code maxDistinct == Long.MAX_VALUE} there is no cap and no
     * reservation.
     *
     * @return {@code true} if the batch was added, {@code false} if the cap refused it
     */
    public boolean addAll(Map<? extends K, Long> deltas, long maxDistinct) {
        List<Map.Entry<K, Long>>[] byStripe = byStripe(deltas);
        if (maxDistinct == Long.MAX_VALUE) {
            long inserted = insert(byStripe, null, maxDistinct);
            if (inserted > 0) {
                distinct.addAndGet(inserted);
            }
            return true;
        }
        long slots = deltas.size();
        if (!reserve(slots, maxDistinct)) {
            // Near the cap: count the new keys first and reserve their slots only, or refuse.
            slots = readOverStripes(s -> byStripe[s] != null, (s, map) -> {
                long n = 0;
                for (Map.Entry<K, Long> e : byStripe[s]) {
                    if (!map.containsKey(e.getKey())) {
                        n++;
                    }
                }
                return n;
            });
            if (slots > 0 && !reserve(slots, maxDistinct)) {
                return false;
            }
        }
        try (Reservation reservation = new Reservation(slots)) {
            insert(byStripe, reservation, maxDistinct);
        }
        return true;
    }

    /**
     * Reserves {@code slots} distinct keys under {@code maxDistinct} for a group of writes that
     * must pass or fail together, or returns {@code null} when they do not fit now. Each write of the
     * group ({@link #addAll(Map, StripedCounts.Reservation, long)}) takes its new keys' slots from it; {@link
     * Reservation#close} gives back those not used. With {@code slots} at least the group's keys
     * counted per write, the writes never run short.
     */
    public Reservation tryReserve(long slots, long maxDistinct) {
        if (slots < 0) {
            throw new IllegalArgumentException("slots must not be negative, was " + slots);
        }
        return reserve(slots, maxDistinct) ? new Reservation(slots) : null;
    }

    /**
     * Adds every {@code (key, delta)} of {@code deltas}, entering each stripe once; each new key
     * takes a slot of {@code reservation}. A new key finding it spent takes a slot under {@code
     * maxDistinct} if one is free, else its delta is dropped (the caller reserved too few).
     */
    public void addAll(Map<? extends K, Long> deltas, Reservation reservation, long maxDistinct) {
        insert(byStripe(deltas), Objects.requireNonNull(reservation, "reservation"), maxDistinct);
    }

    /**
     * Slots of the distinct-key cap taken for writes to come ({@link #tryReserve}); writes draw on
     * them from any thread, and {@link #close} gives back what they left.
     */
    public final class Reservation implements AutoCloseable {

        private final AtomicLong left; // taken by the writes of the group (any thread), zeroed by close

        private Reservation(long slots) {
            this.left = new AtomicLong(slots);
        }

        /** Takes one slot, or returns {@code false} when none is left. */
        private boolean take() {
            long n;
            do {
                n = left.get();
                if (n == 0) {
                    return false;
                }
            } while (!left.compareAndSet(n, n - 1));
            return true;
        }

        /** Gives the slots not taken back to the store; further writes find none left. */
        @Override
        public void close() {
            long unused = left.getAndSet(0);
            if (unused > 0) {
                distinct.addAndGet(-unused);
            }
        }
    }

    private List<Map.Entry<K, Long>>[] byStripe(Map<? extends K, Long> deltas) {
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
        return byStripe;
    }

    /**
     * Merges the entries into their stripes. With a reservation, a key not present takes a slot of
     * it before it is inserted, or one under {@code maxDistinct}, or is dropped; without, the
     * caller adds the returned number of inserted keys to the distinct count.
     */
    private long insert(List<Map.Entry<K, Long>>[] byStripe, Reservation reservation, long maxDistinct) {
        return sumOverStripes(s -> byStripe[s] != null, (s, map) -> {
            long n = 0;
            for (Map.Entry<K, Long> e : byStripe[s]) {
                K key = e.getKey();
                if (reservation == null || map.containsKey(key)) {
                    if (map.merge(key, e.getValue(), Long::sum) == e.getValue().longValue()) {
                        n++;
                    }
                } else if (reservation.take() || reserve(1, maxDistinct)) {
                    map.put(key, e.getValue());
                    n++;
                }
            }
            return n;
        });
    }

    /** The count of {@code key}, 0 when it was never added. */
    public long get(K key) {
        Objects.requireNonNull(key, "key");
        Stripe<K> stripe = stripes[stripeOf(key)];
        Long count = stripe.guard.read(() -> stripe.map.get(key));
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
        readOverStripes(ALL, (s, map) -> {
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
     * stripe. Exact whenever no write is under way; while writes run it may include the slots
     * reserved but not yet filled or given back, and miss keys an uncapped write has inserted but
     * not yet added to the counter.
     */
    public long size() {
        return distinct.get();
    }

    /** The sum of all counts. */
    public long total() {
        return readOverStripes(ALL, (s, map) -> {
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
        return stripe.guard.read(() -> new HashMap<>(stripe.map));
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
        return overStripes(visit, section, false);
    }

    /** As {@link #sumOverStripes}, for a section that only reads its map: a read section of each guard. */
    private long readOverStripes(IntPredicate visit, StripeSection<K> section) {
        return overStripes(visit, section, true);
    }

    private long overStripes(IntPredicate visit, StripeSection<K> section, boolean readOnly) {
        long sum = 0;
        for (int s = 0; s < stripes.length; s++) {
            if (visit.test(s)) {
                Stripe<K> stripe = stripes[s];
                int index = s;
                Supplier<Long> body = () -> section.apply(index, stripe.map);
                sum += readOnly ? stripe.guard.read(body) : stripe.guard.write(body);
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
