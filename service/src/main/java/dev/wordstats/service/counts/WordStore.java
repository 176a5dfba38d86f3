package dev.wordstats.service.counts;

import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.counts.StripedCounts;
import dev.wordstats.numa.counts.StripedCounts.Reservation;
import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.ReadWriteGuards;
import dev.wordstats.numa.lock.probe.CountingProbe;
import dev.wordstats.numa.lock.probe.JfrLockProbe;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.lock.probe.LockStats;
import dev.wordstats.numa.lock.probe.LockTimer;
import dev.wordstats.numa.topology.NodeLocator;
import dev.wordstats.service.WordstatsProperties;
import dev.wordstats.service.numa.NumaRuntime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The word counts: a {@link StripedCounts} whose stripes are guarded by guards of the configured
 * {@link LockType}, whatever the type (a {@code Lock}, a monitor or a delegating lock), each reporting
 * to its own {@link CountingProbe} (for the meters) and {@link JfrLockProbe} (lock events for JDK Flight
 * Recorder, off with {@code -Dwordstats.lock.jfr=false}), capped at
 * {@code wordstats.limits.max-distinct-words} distinct words.
 *
 * <p>Every write adds a whole request's words at once, all or nothing: a request that would take
 * the store past its distinct-word cap adds nothing and gets {@link StoreFullException}.
 *
 * <p>{@link #wordsCounted()} is kept in a {@link LongAdder} (striped per thread contention), so
 * counting it adds no shared hot spot; the lock statistics are kept by the stripes' probes, which the
 * locks write from inside their own critical sections.
 */
@Component
public class WordStore {

    private final StripedCounts<String> counts;
    private final List<CountingProbe> probes; // one per stripe, in stripe order; fixed after construction
    private final LockType lockType;
    private final long maxDistinct;
    private final LongAdder wordsCounted = new LongAdder(); // added to by every successful write, never reset

    /**
     * The store Spring builds: node lookups from the runtime's locator, timing through the
     * {@link LockTimer} bean when {@code wordstats.lock.timing} is on (none otherwise).
     */
    @Autowired
    public WordStore(WordstatsProperties properties, NumaRuntime numa, ObjectProvider<StripeLockTimers> lockTimers) {
        this(properties, numa.nodeLocator(), timers(lockTimers, true), timers(lockTimers, false));
    }

    private static LockTimer timers(ObjectProvider<StripeLockTimers> lockTimers, boolean writes) {
        StripeLockTimers timers = lockTimers.getIfAvailable();
        return timers == null ? LockTimer.NONE : writes ? timers.writes() : timers.reads();
    }

    /**
     * A store whose write sections (every section of an exclusive lock type) report their times to
     * {@code lockTimer} and whose read sections (of a reader-writer type) to {@code readTimer}.
     */
    public WordStore(WordstatsProperties properties, NodeLocator nodes, LockTimer lockTimer, LockTimer readTimer) {
        this.lockType = properties.lock().type();
        LockSettings settings = properties.lock().settings();
        this.maxDistinct = properties.limits().maxDistinctWords();
        LockContext context = new LockContext(nodes, CarrierPinning.schedulerParallelism());
        List<CountingProbe> stripeProbes = new ArrayList<>();
        this.counts = new StripedCounts<>(properties.lock().stripes(), i -> {
            CountingProbe probe = new CountingProbe(nodes, lockTimer);
            stripeProbes.add(probe);
            // the lock reports once; the meters and JDK Flight Recorder both hear it (read sections: the meters)
            return ReadWriteGuards.create(
                    lockType,
                    context,
                    settings,
                    readTimer == LockTimer.NONE ? LockProbe.NONE : new ReadSectionProbe(readTimer),
                    LockProbe.both(probe, JfrLockProbe.byDefault(lockType, nodes)));
        });
        this.probes = List.copyOf(stripeProbes);
    }

    /**
     * Adds {@code deltas} (word to occurrences) if the new words fit under the distinct-word cap.
     *
     * @param words the sum of the deltas, for {@link #wordsCounted()}
     * @throws StoreFullException if the cap refused the batch (nothing was added)
     */
    public void addAll(Map<String, Long> deltas, long words) {
        if (deltas.isEmpty()) {
            return;
        }
        if (!counts.addAll(deltas, maxDistinct)) {
            throw new StoreFullException(maxDistinct);
        }
        wordsCounted.add(words);
    }

    /**
     * Reserves {@code newWordsAtMost} distinct words under the cap for a group of writes that pass
     * together ({@link #addAll(Map, long, Reservation)}), or returns {@code null} when they do not
     * fit now; close it when the group is done ({@link StripedCounts#tryReserve}).
     */
    public Reservation reserve(long newWordsAtMost) {
        return counts.tryReserve(newWordsAtMost, maxDistinct);
    }

    /**
     * As {@link #addAll(Map, long)}, the new words taking their slots from {@code reservation},
     * which must hold at least as many as the group brings keys.
     */
    public void addAll(Map<String, Long> deltas, long words, Reservation reservation) {
        if (deltas.isEmpty()) {
            return;
        }
        counts.addAll(deltas, reservation, maxDistinct);
        wordsCounted.add(words);
    }

    /** The count of {@code word}, 0 when unseen. */
    public long count(String word) {
        return counts.get(word);
    }

    /** The {@code n} most counted words, count descending, then word ascending. */
    public List<Map.Entry<String, Long>> top(int n) {
        return counts.top(n, Comparator.naturalOrder());
    }

    /** The sum of all counts now held (drops to 0 on {@link #clear()}). */
    public long total() {
        return counts.total();
    }

    /** The number of distinct words now held. */
    public long distinct() {
        return counts.size();
    }

    /** Every word counted since startup, including those cleared since. */
    public long wordsCounted() {
        return wordsCounted.sum();
    }

    /** Removes every count. */
    public void clear() {
        counts.clear();
    }

    /**
     * Adds restored counts (a snapshot read at start-up) without passing them through
     * {@link #wordsCounted()}, which counts the words received since start-up, and without the cap:
     * a snapshot over a lowered cap is loaded whole; the distinct count includes it, so no new word
     * is accepted until the store is back under the cap.
     */
    public void restore(Map<String, Long> restored) {
        counts.addAll(restored, Long.MAX_VALUE);
    }

    /** A copy of stripe {@code i}, taken under its guard ({@link StripedCounts#copyStripe}). */
    public Map<String, Long> copyStripe(int i) {
        return counts.copyStripe(i);
    }

    public LockType lockType() {
        return lockType;
    }

    public int stripes() {
        return counts.stripeCount();
    }

    public long maxDistinct() {
        return maxDistinct;
    }

    /** The stripe locks' acquisitions by the node of the thread that ran the critical section, summed. */
    public long[] lockAcquisitionsByNode() {
        return CountingProbe.totalByNode(probes);
    }

    /** The stripe locks' statistics, summed. */
    public LockStats lockStats() {
        return CountingProbe.total(probes);
    }

    /**
     * The stripe locks' switches between their lean and queued modes, summed: the types that
     * {@linkplain LockType#hasModes() have modes} switch, every other type reports none.
     */
    public long lockModeSwitches() {
        long sum = 0;
        for (CountingProbe probe : probes) {
            sum += probe.modeSwitches();
        }
        return sum;
    }
}
