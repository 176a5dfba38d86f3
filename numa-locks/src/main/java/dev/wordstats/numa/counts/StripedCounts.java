package dev.wordstats.numa.counts;

import dev.wordstats.numa.lock.LockStats;
import dev.wordstats.numa.lock.ObservedLock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.function.IntFunction;

/**
 * Counts per key in {@code N} plain {@link HashMap}s (N a power of two), each guarded by its own
 * lock. A key's stripe is {@code spread(key.hashCode()) & (N - 1)}, so keys that hash alike share a
 * lock and a small vocabulary means high contention: the workload of the thesis this project
 * comes from.
 *
 * <p>Each operation takes one stripe lock at a time, never two, so there is no lock ordering to
 * keep and no deadlock. Whole-map reads ({@link #top}, {@link #total}) visit the stripes one by one:
 * they are exact for each stripe but not one instant across stripes.
 *
 * <p>A store may be given a cap on distinct keys: {@link #addAll(Map, long)} then either adds all of
 * a batch or, when the batch's new keys would pass the cap, none of it. The distinct count lives in
 * one {@link AtomicLong} that is written only when a batch brings keys the store has not seen, so
 * counting known keys never meets a shared counter. Far from the cap a batch adds without reserving;
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
     * @param lockFactory makes the lock of stripe {@code i}
     */
    @SuppressWarnings("unchecked")
    public StripedCounts(int stripeCount, IntFunction<? extends Lock> lockFactory) {
        if (stripeCount < 1 || stripeCount > (1 << 16) || Integer.bitCount(stripeCount) != 1) {
            throw new IllegalArgumentException("stripes must be a power of two from 1 to 65536, was " + stripeCount);
        }
        Objects.requireNonNull(lockFactory, "lockFactory");
        this.stripes = new Stripe[stripeCount];
        for (int i = 0; i < stripeCount; i++) {
            stripes[i] = new Stripe<>(Objects.requireNonNull(lockFactory.apply(i), "lock of stripe " + i));
        }
        this.mask = stripeCount - 1;
    }

    /** The number of stripes. */
    public int stripeCount() {
        return stripes.length;
    }

    /** The lock guarding stripe {@code i}. */
    public Lock lock(int i) {
        return stripes[i].lock;
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
        stripe.lock.lock();
        try {
            if (stripe.map.merge(key, delta, Long::sum) == delta) {
                distinct.incrementAndGet();
            }
        } finally {
            stripe.lock.unlock();
        }
    }

    /** Adds one to each key's count, once per occurrence; each stripe's lock is taken once. */
    public void incrementAll(Collection<? extends K> keys) {
        Map<K, Long> deltas = new HashMap<>();
        for (K key : keys) {
            deltas.merge(Objects.requireNonNull(key, "key"), 1L, Long::sum);
        }
        addAll(deltas, Long.MAX_VALUE);
    }

    /**
     * Adds every {@code (key, delta)} of {@code deltas} (deltas at least 1), visiting each stripe
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
        long unseen = 0;
        if (distinct.get() + deltas.size() > maxDistinct) {
            // Near the cap: count the new keys first and reserve their slots, or refuse.
            unseen = countUnseen(byStripe);
            if (unseen > 0 && !reserve(unseen, maxDistinct)) {
                return false;
            }
        }
        long inserted = 0;
        for (int s = 0; s < byStripe.length; s++) {
            List<Map.Entry<K, Long>> batch = byStripe[s];
            if (batch == null) {
                continue;
            }
            Stripe<K> stripe = stripes[s];
            stripe.lock.lock();
            try {
                for (Map.Entry<K, Long> e : batch) {
                    if (stripe.map.merge(e.getKey(), e.getValue(), Long::sum)
                            == e.getValue().longValue()) {
                        inserted++;
                    }
                }
            } finally {
                stripe.lock.unlock();
            }
        }
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
        stripe.lock.lock();
        try {
            Long count = stripe.map.get(key);
            return count == null ? 0L : count;
        } finally {
            stripe.lock.unlock();
        }
    }

    /**
     * The {@code n} keys with the highest counts, highest first; equal counts in the order of
     * {@code tieBreak}.
     */
    public List<Map.Entry<K, Long>> top(int n, Comparator<? super K> tieBreak) {
        if (n < 0) {
            throw new IllegalArgumentException("n must not be negative, was " + n);
        }
        Comparator<Map.Entry<K, Long>> order = Comparator.comparing(
                        (Map.Entry<K, Long> e) -> e.getValue(), Comparator.reverseOrder())
                .thenComparing(Map.Entry::getKey, tieBreak);
        PriorityQueue<Map.Entry<K, Long>> worstFirst = new PriorityQueue<>(n + 1, order.reversed());
        if (n == 0) {
            return List.of();
        }
        for (Stripe<K> stripe : stripes) {
            stripe.lock.lock();
            try {
                for (Map.Entry<K, Long> e : stripe.map.entrySet()) {
                    if (worstFirst.size() < n) {
                        worstFirst.add(Map.entry(e.getKey(), e.getValue()));
                    } else if (order.compare(e, worstFirst.peek()) < 0) {
                        worstFirst.poll();
                        worstFirst.add(Map.entry(e.getKey(), e.getValue()));
                    }
                }
            } finally {
                stripe.lock.unlock();
            }
        }
        List<Map.Entry<K, Long>> result = new ArrayList<>(worstFirst);
        result.sort(order);
        return result;
    }

    /** The number of distinct keys counted. */
    public long size() {
        long size = 0;
        for (Stripe<K> stripe : stripes) {
            stripe.lock.lock();
            try {
                size += stripe.map.size();
            } finally {
                stripe.lock.unlock();
            }
        }
        return size;
    }

    /** The sum of all counts. */
    public long total() {
        long total = 0;
        for (Stripe<K> stripe : stripes) {
            stripe.lock.lock();
            try {
                for (long count : stripe.map.values()) {
                    total += count;
                }
            } finally {
                stripe.lock.unlock();
            }
        }
        return total;
    }

    /** Removes every key, stripe by stripe. */
    public void clear() {
        for (Stripe<K> stripe : stripes) {
            stripe.lock.lock();
            try {
                int removed = stripe.map.size();
                stripe.map.clear();
                distinct.addAndGet(-removed);
            } finally {
                stripe.lock.unlock();
            }
        }
    }

    /**
     * The sum of the stripes' lock statistics, for stripes whose locks are {@link ObservedLock}s
     * ({@link LockStats#ZERO} when none are).
     */
    public LockStats lockStats() {
        LockStats sum = LockStats.ZERO;
        for (Stripe<K> stripe : stripes) {
            if (stripe.lock instanceof ObservedLock observed) {
                sum = sum.plus(observed.stats());
            }
        }
        return sum;
    }

    private long countUnseen(List<Map.Entry<K, Long>>[] byStripe) {
        long unseen = 0;
        for (int s = 0; s < byStripe.length; s++) {
            List<Map.Entry<K, Long>> batch = byStripe[s];
            if (batch == null) {
                continue;
            }
            Stripe<K> stripe = stripes[s];
            stripe.lock.lock();
            try {
                for (Map.Entry<K, Long> e : batch) {
                    if (!stripe.map.containsKey(e.getKey())) {
                        unseen++;
                    }
                }
            } finally {
                stripe.lock.unlock();
            }
        }
        return unseen;
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

    /** One stripe: a plain map and the lock that guards it. */
    private static final class Stripe<K> {
        final Lock lock;
        final HashMap<K, Long> map = new HashMap<>(); // read and written only under lock

        Stripe(Lock lock) {
            this.lock = lock;
        }
    }
}
