package dev.wordstats.service.counts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.probe.LockTimer;
import dev.wordstats.numa.topology.NodeLocator;
import dev.wordstats.service.StartupCheckException;
import dev.wordstats.service.WordstatsProperties;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** Snapshots of the store: exact restores under any lock type, atomic writes, and every bad file refused. */
@Timeout(60)
class StoreSnapshotsTest {

    private static final long DURATION_MILLIS = Long.getLong("wordstats.test.durationMillis", 500);

    @TempDir
    Path dir;

    private WordstatsProperties properties(LockType lock, String onBad, long maxDistinct) {
        Map<String, String> values = new HashMap<>();
        values.put("wordstats.lock.type", lock.name());
        values.put("wordstats.lock.stripes", "8");
        values.put("wordstats.limits.max-distinct-words", Long.toString(maxDistinct));
        values.put("wordstats.store.data-dir", dir.toString());
        values.put("wordstats.store.on-bad-snapshot", onBad);
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("wordstats", WordstatsProperties.class);
    }

    private WordStore store(WordstatsProperties properties) {
        return new WordStore(properties, NodeLocator.singleNode(), LockTimer.NONE, LockTimer.NONE);
    }

    private Path snapshot() {
        return dir.resolve(StoreSnapshots.FILE_NAME);
    }

    /** Every word and count of the store. */
    private static Map<String, Long> contents(WordStore store) {
        Map<String, Long> all = new HashMap<>();
        for (int i = 0; i < store.stripes(); i++) {
            all.putAll(store.copyStripe(i));
        }
        return all;
    }

    private Map<String, Long> someCounts() {
        Map<String, Long> counts = new HashMap<>();
        for (int i = 0; i < 500; i++) {
            counts.put("w" + i, (long) (i % 17) + 1);
        }
        counts.put("don't", 3L);
        counts.put("naïve", 2L);
        counts.put("日本語", 5L);
        counts.put("i\u0307", 1L);
        counts.put("𝒜𝒷", 4L);
        return counts;
    }

    @ParameterizedTest
    @EnumSource(LockType.class)
    void restartWithAnotherLockTypeKeepsEveryCountExactly(LockType next) throws IOException {
        WordStore before = store(properties(LockType.NUMA_MCS, "fail", 1_000_000));
        StoreSnapshots first = new StoreSnapshots(before, properties(LockType.NUMA_MCS, "fail", 1_000_000));
        Map<String, Long> counts = someCounts();
        before.addAll(
                counts, counts.values().stream().mapToLong(Long::longValue).sum());
        assertThat(first.writeIfChanged()).isTrue();
        first.close();

        WordStore after = store(properties(next, "fail", 1_000_000));
        new StoreSnapshots(after, properties(next, "fail", 1_000_000));
        assertThat(after.lockType()).isEqualTo(next);
        assertThat(contents(after)).isEqualTo(counts);
        assertThat(after.distinct()).isEqualTo(counts.size());
        assertThat(after.total()).isEqualTo(before.total());
        assertThat(after.top(10)).isEqualTo(before.top(10));
        assertThat(after.wordsCounted())
                .as("restored words were not received since start-up")
                .isZero();
    }

    @Test
    void writeIsSkippedWhileNothingChangedAndDueAfterAWordOrAClear() throws IOException {
        WordstatsProperties p = properties(LockType.UNFAIR_REENTRANT, "fail", 1000);
        WordStore store = store(p);
        StoreSnapshots snapshots = new StoreSnapshots(store, p);
        assertThat(snapshots.writeIfChanged()).isFalse();
        assertThat(snapshots.ageSeconds()).isNaN();
        store.addAll(Map.of("a", 1L), 1);
        assertThat(snapshots.writeIfChanged()).isTrue();
        assertThat(snapshots.writeIfChanged()).isFalse();
        assertThat(snapshots.sizeBytes()).isEqualTo(Files.size(snapshot()));
        assertThat(snapshots.ageSeconds()).isBetween(0.0, 5.0);
        assertThat(snapshots.words()).isEqualTo(1);

        snapshots.clear();
        assertThat(store.total()).isZero();
        assertThat(snapshot()).doesNotExist();
        assertThat(snapshots.writeIfChanged())
                .as("an empty store needs no file")
                .isFalse();
        assertThat(snapshots.ageSeconds()).isNaN();
        store.addAll(Map.of("b", 2L), 2);
        assertThat(snapshots.writeIfChanged()).isTrue();
        assertThat(SnapshotFile.read(snapshot())).containsExactlyEntriesOf(Map.of("b", 2L));
    }

    @Test
    void clearedCountsStayClearedAfterARestart() throws IOException {
        WordstatsProperties p = properties(LockType.FAIR_REENTRANT, "fail", 1000);
        WordStore store = store(p);
        StoreSnapshots snapshots = new StoreSnapshots(store, p);
        store.addAll(Map.of("gone", 5L), 5);
        snapshots.writeIfChanged();
        snapshots.clear();
        snapshots.close();
        WordStore restarted = store(p);
        new StoreSnapshots(restarted, p);
        assertThat(restarted.total()).isZero();
        assertThat(restarted.count("gone")).isZero();
    }

    @Test
    void aClearThatCannotRemoveTheFileChangesNothing() throws IOException {
        WordstatsProperties p = properties(LockType.NUMA_MCS, "fail", 1000);
        WordStore store = store(p);
        StoreSnapshots snapshots = new StoreSnapshots(store, p);
        store.addAll(Map.of("kept", 4L), 4);
        assertThat(snapshots.writeIfChanged()).isTrue();
        // Fails for real, also for root: the snapshot's name is now a non-empty directory.
        Files.delete(snapshot());
        Files.writeString(Files.createDirectory(snapshot()).resolve("inside"), "x");
        assertThatThrownBy(snapshots::clear)
                .isInstanceOf(ClearRefusedException.class)
                .hasMessageContaining("nothing was cleared")
                .hasCauseInstanceOf(java.nio.file.DirectoryNotEmptyException.class);
        assertThat(store.count("kept")).isEqualTo(4);
        assertThat(store.distinct()).isEqualTo(1);

        Files.delete(snapshot().resolve("inside"));
        Files.delete(snapshot());
        assertThat(snapshots.writeIfChanged())
                .as("the file the refused clear may have removed is written again")
                .isTrue();
        assertThat(SnapshotFile.read(snapshot())).containsExactlyEntriesOf(Map.of("kept", 4L));
    }

    @Test
    void wordsCountedWhileAClearRunsAreInTheNextSnapshot() throws Exception {
        // Each round's last words race its clear: those the clear left in memory must make the next
        // write due, so the file always ends as memory is.
        WordstatsProperties p = properties(LockType.NUMA_MCS, "fail", 1_000_000);
        WordStore store = store(p);
        StoreSnapshots snapshots = new StoreSnapshots(store, p);
        long deadline = System.nanoTime() + DURATION_MILLIS * 1_000_000;
        for (int round = 0; round < 20 || System.nanoTime() < deadline; round++) {
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                String prefix = "r" + round + "t" + t + "-";
                writers.add(Thread.ofVirtual().start(() -> {
                    for (int i = 0; !stop.get(); i++) {
                        store.addAll(Map.of(prefix + (i % 64), 1L), 1);
                    }
                }));
            }
            Thread.sleep(1);
            stop.set(true); // the writes in flight now race the clear
            snapshots.clear();
            for (Thread writer : writers) {
                assertThat(writer.join(java.time.Duration.ofSeconds(20))).isTrue();
            }
            snapshots.writeIfChanged();
            Map<String, Long> onDisk = Files.exists(snapshot()) ? SnapshotFile.read(snapshot()) : Map.of();
            assertThat(onDisk)
                    .as("round %d: the file holds what memory holds", round)
                    .isEqualTo(contents(store));
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = LockType.class,
            names = {"NUMA_MCS", "COMBINING", "SYNCHRONIZED"})
    void snapshotsUnderConcurrentLoadNeverHoldACountAboveWhatWasSent(LockType type) throws Exception {
        WordstatsProperties p = properties(type, "fail", 1_000_000);
        WordStore store = store(p);
        StoreSnapshots snapshots = new StoreSnapshots(store, p);
        Map<String, AtomicLong> sent = new ConcurrentHashMap<>();
        for (int w = 0; w < 64; w++) {
            sent.put("w" + w, new AtomicLong());
        }
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int seed = t;
            Runnable load = () -> {
                java.util.Random random = new java.util.Random(seed);
                while (!stop.get()) {
                    Map<String, Long> deltas = new HashMap<>();
                    for (int i = 0; i < 8; i++) {
                        deltas.merge("w" + random.nextInt(64), 1L, Long::sum);
                    }
                    // Counted as sent before the store sees it, so "sent" is never behind the store.
                    deltas.forEach((word, n) -> sent.get(word).addAndGet(n));
                    store.addAll(deltas, 8);
                }
            };
            writers.add(
                    t % 2 == 0
                            ? Thread.ofVirtual().start(load)
                            : Thread.ofPlatform().start(load));
        }
        int checked = 0;
        long deadline = System.nanoTime() + DURATION_MILLIS * 1_000_000;
        try {
            while (System.nanoTime() < deadline || checked < 3) {
                if (snapshots.writeIfChanged()) {
                    Map<String, Long> restored = SnapshotFile.read(snapshot());
                    restored.forEach((word, count) -> assertThat(count)
                            .as(word)
                            .isLessThanOrEqualTo(sent.get(word).get()));
                    checked++;
                }
            }
        } finally {
            stop.set(true);
            for (Thread w : writers) {
                w.join();
            }
        }
        // Quiet now: one more write is exact, and a restart restores exactly it.
        snapshots.writeIfChanged();
        snapshots.close();
        WordStore restarted = store(p);
        new StoreSnapshots(restarted, p);
        sent.forEach((word, n) -> assertThat(restarted.count(word)).as(word).isEqualTo(n.get()));
    }

    @Test
    void aTruncatedCorruptForeignOrNewerSnapshotStopsTheStartNamingTheFile() throws IOException {
        byte[] good = goodSnapshotBytes();
        Map<String, byte[]> bad = new java.util.LinkedHashMap<>();
        bad.put("is truncated", java.util.Arrays.copyOf(good, good.length - 5));
        bad.put("is truncated (it ends after 7 bytes)", java.util.Arrays.copyOf(good, 7));
        byte[] flipped = good.clone();
        flipped[40] ^= 0x10;
        bad.put("is corrupt", flipped);
        bad.put("is not a wordstats snapshot", "{\"words\": {\"a\": 1}}\n".getBytes(StandardCharsets.UTF_8));
        byte[] newer = good.clone();
        newer[22] = 2; // the low byte of the version int after the 19-byte magic
        bad.put("has format version 2", newer);
        byte[] trailing = java.util.Arrays.copyOf(good, good.length + 1);
        bad.put("is corrupt (bytes after the checksum)", trailing);

        WordstatsProperties p = properties(LockType.NUMA_MCS, "fail", 1000);
        for (Map.Entry<String, byte[]> e : bad.entrySet()) {
            Files.write(snapshot(), e.getValue());
            assertThatThrownBy(() -> new StoreSnapshots(store(p), p))
                    .as(e.getKey())
                    .isInstanceOf(StartupCheckException.class)
                    .hasMessageContaining(snapshot().toString())
                    .hasMessageContaining(e.getKey());
            assertThat(snapshot()).as("left in place").hasBinaryContent(e.getValue());
        }
    }

    @Test
    void withStartEmptyABadSnapshotIsMovedAsideAndTheStoreStartsEmpty() throws IOException {
        byte[] good = goodSnapshotBytes();
        byte[] truncated = java.util.Arrays.copyOf(good, good.length / 2);
        Files.write(snapshot(), truncated);
        WordstatsProperties p = properties(LockType.NUMA_MCS, "start-empty", 1000);
        WordStore store = store(p);
        StoreSnapshots snapshots = new StoreSnapshots(store, p);
        assertThat(store.total()).isZero();
        assertThat(snapshot()).doesNotExist();
        List<Path> aside;
        try (Stream<Path> files = Files.list(dir)) {
            aside = files.filter(f -> f.getFileName().toString().startsWith(StoreSnapshots.FILE_NAME + ".bad-"))
                    .toList();
        }
        assertThat(aside).singleElement().satisfies(f -> assertThat(f).hasBinaryContent(truncated));
        store.addAll(Map.of("fresh", 1L), 1);
        assertThat(snapshots.writeIfChanged()).isTrue();
        assertThat(aside.getFirst()).as("never overwritten").hasBinaryContent(truncated);
    }

    @Test
    void aSnapshotAboveALoweredCapIsRestoredWholeAndReportedAndTheCapHoldsAfterARestore() throws IOException {
        Files.write(snapshot(), goodSnapshotBytes()); // 3 distinct words
        WordstatsProperties tight = properties(LockType.NUMA_MCS, "fail", 2);
        WordStore over = store(tight);
        StoreSnapshots restored = new StoreSnapshots(over, tight);
        assertThat(over.distinct()).isEqualTo(3);
        assertThat(restored.restoredOverCap()).isEqualTo(3);
        assertThat(snapshot()).as("kept where it is").hasBinaryContent(goodSnapshotBytes());
        assertThatThrownBy(() -> over.addAll(Map.of("new", 1L), 1)).isInstanceOf(StoreFullException.class);
        restored.close();

        WordstatsProperties exact = properties(LockType.NUMA_MCS, "fail", 4);
        WordStore store = store(exact);
        assertThat(new StoreSnapshots(store, exact).restoredOverCap()).isZero();
        assertThat(store.distinct()).isEqualTo(3);
        store.addAll(Map.of("fourth", 1L), 1);
        assertThatThrownBy(() -> store.addAll(Map.of("fifth", 1L), 1)).isInstanceOf(StoreFullException.class);
        assertThat(store.count("fifth")).isZero();
    }

    @Test
    void anUnwritableDataDirectoryStopsTheStartNamingTheProperty() throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "not a directory");
        Map<String, String> values =
                Map.of("wordstats.store.data-dir", file.resolve("data").toString());
        WordstatsProperties p = new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("wordstats", WordstatsProperties.class);
        assertThatThrownBy(() -> new StoreSnapshots(store(p), p))
                .isInstanceOf(StartupCheckException.class)
                .hasMessageContaining("wordstats.store.data-dir " + file.resolve("data"))
                .hasMessageContaining("is not a writable directory");
    }

    @Test
    void anUnfinishedWriteIsRemovedAndTheLastWholeSnapshotRestored() throws IOException {
        Files.write(snapshot(), goodSnapshotBytes());
        Path tmp = SnapshotFile.newTempOf(snapshot());
        Files.write(tmp, new byte[] {1, 2, 3});
        Path earlierVersionsTmp = dir.resolve(StoreSnapshots.FILE_NAME + ".tmp");
        Files.write(earlierVersionsTmp, new byte[] {4, 5});
        WordstatsProperties p = properties(LockType.NUMA_MCS, "fail", 1000);
        WordStore store = store(p);
        new StoreSnapshots(store, p);
        assertThat(tmp).doesNotExist();
        assertThat(earlierVersionsTmp).doesNotExist();
        assertThat(contents(store)).isEqualTo(Map.of("alpha", 3L, "beta", 1L, "gamma", 2L));
    }

    /** A valid snapshot of {alpha=3, beta=1, gamma=2}, written by the code under test. */
    private byte[] goodSnapshotBytes() throws IOException {
        Path other = Files.createTempDirectory(dir, "good");
        Path file = other.resolve("s");
        List<Map<String, Long>> parts = List.of(Map.of("alpha", 3L), Map.of(), Map.of("beta", 1L, "gamma", 2L));
        SnapshotFile.write(file, parts.size(), parts::get);
        assertThat(SnapshotFile.read(file)).isEqualTo(Map.of("alpha", 3L, "beta", 1L, "gamma", 2L));
        return Files.readAllBytes(file);
    }
}
