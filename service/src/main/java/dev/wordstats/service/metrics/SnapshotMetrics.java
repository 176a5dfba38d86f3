package dev.wordstats.service.metrics;

import dev.wordstats.service.counts.StoreSnapshots;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.stereotype.Component;

/**
 * The snapshot of the counts in the data directory ({@link StoreSnapshots}), read at scrape time:
 * <ul>
 *   <li>{@code wordstats.store.snapshot.age} [{@code wordstats_store_snapshot_age_seconds}]: since
 *       the snapshot on disk was written (NaN when there is none);</li>
 *   <li>{@code wordstats.store.snapshot.duration} [{@code wordstats_store_snapshot_duration_seconds}]:
 *       how long the last write took;</li>
 *   <li>{@code wordstats.store.snapshot.size} [{@code wordstats_store_snapshot_size_bytes}]: the
 *       file's size;</li>
 *   <li>{@code wordstats.store.snapshot.failures}
 *       [{@code wordstats_store_snapshot_failures_total}]: writes that failed since start-up;</li>
 *   <li>{@code wordstats.store.snapshot.restored.over.cap}
 *       [{@code wordstats_store_snapshot_restored_over_cap_words}]: the distinct words of a restored
 *       snapshot that held more than the distinct-word cap (0 when it did not).</li>
 * </ul>
 */
@Component
class SnapshotMetrics implements MeterBinder {

    private final StoreSnapshots snapshots;

    SnapshotMetrics(StoreSnapshots snapshots) {
        this.snapshots = snapshots;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("wordstats.store.snapshot.age", snapshots, StoreSnapshots::ageSeconds)
                .description("Time since the snapshot of the counts on disk was written (NaN when there is none)")
                .baseUnit("seconds")
                .register(registry);
        Gauge.builder("wordstats.store.snapshot.duration", snapshots, StoreSnapshots::lastWriteSeconds)
                .description("How long the last snapshot write took (copying the stripes, writing, fsync, move)")
                .baseUnit("seconds")
                .register(registry);
        Gauge.builder("wordstats.store.snapshot.size", snapshots, StoreSnapshots::sizeBytes)
                .description("Size of the snapshot of the counts on disk")
                .baseUnit(BaseUnits.BYTES)
                .register(registry);
        FunctionCounter.builder("wordstats.store.snapshot.failures", snapshots, StoreSnapshots::writeFailures)
                .description("Snapshot writes that failed since start-up (the previous snapshot stays)")
                .register(registry);
        Gauge.builder("wordstats.store.snapshot.restored.over.cap", snapshots, StoreSnapshots::restoredOverCap)
                .description("Distinct words of the restored snapshot when more than the distinct-word cap, else 0")
                .baseUnit("words")
                .register(registry);
    }
}
