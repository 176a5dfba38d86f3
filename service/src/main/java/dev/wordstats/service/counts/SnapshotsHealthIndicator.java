package dev.wordstats.service.counts;

import dev.wordstats.service.WordstatsProperties;
import java.time.Instant;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * The {@code snapshots} health component: DOWN once {@code wordstats.store.unhealthy-after-failures}
 * snapshot writes in a row have failed (the counts are then kept in memory only, and a restart
 * would lose what was counted since the last good write), UP again after the next good write. Its
 * details: {@code failuresInARow}, {@code lastFailure} (the error of the last failed write) and
 * {@code lastGoodWrite} (when this process last wrote a snapshot, {@code none} before the first).
 *
 * <p>It is part of {@code /actuator/health}, not of the readiness group: the service goes on
 * counting and answering while snapshots fail, so taking it out of traffic would help nobody.
 */
@Component
class SnapshotsHealthIndicator implements HealthIndicator {

    private final StoreSnapshots snapshots;
    private final int unhealthyAfter;

    SnapshotsHealthIndicator(StoreSnapshots snapshots, WordstatsProperties properties) {
        this.snapshots = snapshots;
        this.unhealthyAfter = properties.store().unhealthyAfterFailures();
    }

    @Override
    public Health health() {
        int failures = snapshots.failuresInARow();
        Instant lastGood = snapshots.lastGoodWrite();
        String lastFailure = snapshots.lastFailure();
        Health.Builder health = failures >= unhealthyAfter ? Health.down() : Health.up();
        health.withDetail("failuresInARow", failures)
                .withDetail("unhealthyAfterFailures", unhealthyAfter)
                .withDetail("lastGoodWrite", lastGood == null ? "none" : lastGood.toString())
                .withDetail("file", snapshots.file().toString());
        if (lastFailure != null) {
            health.withDetail("lastFailure", lastFailure);
        }
        return health.build();
    }
}
