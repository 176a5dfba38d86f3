package dev.wordstats.service.metrics;

import dev.wordstats.service.counts.WordStore;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.ToDoubleFunction;
import org.springframework.stereotype.Component;

/**
 * The store and its stripe guards as meters, all read at scrape time from counters the store and the
 * stripes' lock probes keep anyway (so the request path does no extra work for them), for every lock type
 * (what fast and slow mean for each: {@code dev.wordstats.numa.lock.probe.LockStats}):
 * <ul>
 *   <li>{@code wordstats.lock.acquisitions} (tags {@code lock}, {@code path=fast|slow});</li>
 *   <li>{@code wordstats.lock.handoffs} (tags {@code lock}, {@code locality=same_node|cross_node});</li>
 *   <li>{@code wordstats.lock.mode.switches} (tag {@code lock}): switches of the stripe locks between their
 *       lean and queued modes, both ways; registered only for the types that have modes
 *       ({@code LockType#hasModes()}), as a series that is 0 by construction tells nothing;</li>
 *   <li>{@code wordstats.words.counted}: every word counted since startup;</li>
 *   <li>{@code wordstats.words.distinct}: distinct words held now.</li>
 * </ul>
 * No base units are set, so the Prometheus names are exactly the dotted names:
 * {@code wordstats_lock_acquisitions_total}, {@code wordstats_lock_handoffs_total},
 * {@code wordstats_lock_mode_switches_total},
 * {@code wordstats_words_counted_total}, {@code wordstats_words_distinct}.
 */
@Component
class StoreMetrics implements MeterBinder {

    private final WordStore store;

    StoreMetrics(WordStore store) {
        this.store = store;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        String lock = store.lockType().name();
        lockCounter(
                registry,
                "wordstats.lock.acquisitions",
                "Stripe lock acquisitions, by path: fast (first attempt, or found idle) or slow (waited, or found busy)",
                lock,
                "path",
                "fast",
                s -> s.lockStats().fastAcquisitions());
        lockCounter(
                registry,
                "wordstats.lock.acquisitions",
                "Stripe lock acquisitions, by path: fast (first attempt, or found idle) or slow (waited, or found busy)",
                lock,
                "path",
                "slow",
                s -> s.lockStats().slowAcquisitions());
        lockCounter(
                registry,
                "wordstats.lock.handoffs",
                "Stripe lock acquisitions whose previous owner ran on the same or another NUMA node",
                lock,
                "locality",
                "same_node",
                s -> s.lockStats().sameNodeHandoffs());
        lockCounter(
                registry,
                "wordstats.lock.handoffs",
                "Stripe lock acquisitions whose previous owner ran on the same or another NUMA node",
                lock,
                "locality",
                "cross_node",
                s -> s.lockStats().crossNodeHandoffs());
        if (store.lockType().hasModes()) {
            FunctionCounter.builder("wordstats.lock.mode.switches", store, WordStore::lockModeSwitches)
                    .description("Switches of the stripe locks between their lean and queued modes, both ways")
                    .tag("lock", lock)
                    .register(registry);
        }
        FunctionCounter.builder("wordstats.words.counted", store, WordStore::wordsCounted)
                .description("Words counted since startup")
                .register(registry);
        Gauge.builder("wordstats.words.distinct", store, WordStore::distinct)
                .description("Distinct words held now")
                .register(registry);
    }

    private void lockCounter(
            MeterRegistry registry,
            String name,
            String description,
            String lock,
            String tag,
            String value,
            ToDoubleFunction<WordStore> read) {
        FunctionCounter.builder(name, store, read)
                .description(description)
                .tag("lock", lock)
                .tag(tag, value)
                .register(registry);
    }
}
