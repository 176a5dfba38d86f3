package dev.wordstats.service.counts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.lock.probe.LockTimer;
import dev.wordstats.numa.topology.NodeLocator;
import dev.wordstats.service.WordstatsProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/** The snapshots health component follows the writes: DOWN after N failures in a row, UP after a good one. */
@Timeout(30)
class SnapshotsHealthIndicatorTest {

    @TempDir
    Path dir;

    private WordstatsProperties properties(int unhealthyAfter) {
        return new Binder(new MapConfigurationPropertySource(Map.of(
                        "wordstats.lock.stripes", "4",
                        "wordstats.store.data-dir", dir.toString(),
                        "wordstats.store.unhealthy-after-failures", Integer.toString(unhealthyAfter))))
                .bindOrCreate("wordstats", WordstatsProperties.class);
    }

    /** Makes every write fail for real, also for root: the snapshot's name is a non-empty directory. */
    private Path blockTheSnapshot() throws IOException {
        Path snapshot = dir.resolve(StoreSnapshots.FILE_NAME);
        Files.deleteIfExists(snapshot);
        return Files.writeString(Files.createDirectory(snapshot).resolve("inside"), "x");
    }

    private List<Path> tempFiles() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".tmp"))
                    .toList();
        }
    }

    @Test
    void downAfterTheConfiguredFailuresInARowWithTheReasonAndUpAfterAGoodWrite() throws IOException {
        WordstatsProperties p = properties(3);
        WordStore store = new WordStore(p, NodeLocator.singleNode(), LockTimer.NONE, LockTimer.NONE);
        try (StoreSnapshots snapshots = new StoreSnapshots(store, p)) {
            SnapshotsHealthIndicator indicator = new SnapshotsHealthIndicator(snapshots, p);
            assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
            assertThat(indicator.health().getDetails()).containsEntry("lastGoodWrite", "none");

            store.addAll(Map.of("first", 1L), 1);
            assertThat(snapshots.writeIfChanged()).isTrue();
            String firstGood = (String) indicator.health().getDetails().get("lastGoodWrite");
            assertThat(firstGood).isNotEqualTo("none");

            store.addAll(Map.of("second", 1L), 1);
            Path inside = blockTheSnapshot();
            for (int failure = 1; failure <= 3; failure++) {
                assertThatThrownBy(snapshots::writeIfChanged).isInstanceOf(IOException.class);
                Health health = indicator.health();
                assertThat(health.getStatus())
                        .as("after %d failures in a row", failure)
                        .isEqualTo(failure < 3 ? Status.UP : Status.DOWN);
                assertThat(health.getDetails())
                        .containsEntry("failuresInARow", failure)
                        .containsEntry("lastGoodWrite", firstGood)
                        .hasEntrySatisfying(
                                "lastFailure",
                                e -> assertThat((String) e)
                                        .contains("FileSystemException")
                                        .contains(StoreSnapshots.FILE_NAME));
                assertThat(tempFiles())
                        .as("a failed write leaves no temporary file")
                        .isEmpty();
            }

            Files.delete(inside);
            Files.delete(inside.getParent());
            assertThat(snapshots.writeIfChanged()).isTrue();
            Health health = indicator.health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("failuresInARow", 0);
            assertThat(SnapshotFile.read(dir.resolve(StoreSnapshots.FILE_NAME)))
                    .containsExactlyInAnyOrderEntriesOf(Map.of("first", 1L, "second", 1L));
        }
    }
}
