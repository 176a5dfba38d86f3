package dev.wordstats.benchmarks.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class BenchConfigTest {

    private static final Path CONFIGS = Path.of("config");

    @Test
    void everyCommittedConfigParsesAndNamesKnownBenchmarksAndLocks() throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(CONFIGS)) {
            files = list.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        assertThat(files)
                .extracting(p -> p.getFileName().toString())
                .contains(
                        "high-contention.json",
                        "low-contention.json",
                        "text-stats.json",
                        "uncontended.json",
                        "numa-penalty.json",
                        "throughput.json",
                        "half-held.json",
                        "numa-cache.json",
                        "smoke.json");
        for (Path file : files) {
            BenchConfig config = BenchConfig.read(file);
            assertThat(config.benches()).as(file.toString()).isNotEmpty();
            for (BenchConfig.Bench bench : config.benches()) {
                assertThat(bench.kind()).isNotNull();
                if (bench.payload().locks() != null) {
                    assertThat(bench.payload().locks())
                            .allMatch(l -> l.startsWith("CHM_") || dev.wordstats.numa.lock.LockType.parse(l) != null);
                }
            }
        }
    }

    @Test
    void lockTypesInTheLocksListStandsForEveryLockType(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path file = dir.resolve("all.json");
        Files.writeString(
                file, "{\"benches\": [{\"name\": \"x\", \"payload\": {\"locks\": [\"LOCK_TYPES\", \"CHM_MERGE\"]}}]}");
        List<String> expected = new java.util.ArrayList<>();
        for (dev.wordstats.numa.lock.LockType type : dev.wordstats.numa.lock.LockType.values()) {
            expected.add(type.name());
        }
        expected.add("CHM_MERGE");
        assertThat(BenchConfig.read(file).benches().getFirst().payload().locks())
                .containsExactlyElementsOf(expected);
    }

    @Test
    void theLowContentionPresetDoes128TimesMoreWorkOutsideThanInside() throws IOException {
        for (BenchConfig.Bench bench :
                BenchConfig.read(CONFIGS.resolve("low-contention.json")).benches()) {
            assertThat(bench.payload().beforeCpuTokens())
                    .isEqualTo(128 * bench.payload().inCpuTokens());
        }
    }

    @Test
    void theThroughputPresetsReadNoClockPerAcquisition() throws IOException {
        for (String preset : List.of("throughput.json", "half-held.json")) {
            for (BenchConfig.Bench bench :
                    BenchConfig.read(CONFIGS.resolve(preset)).benches()) {
                if (bench.name().endsWith("-throughput")) {
                    assertThat(bench.payload().recordWaits()).as(bench.name()).isFalse();
                    assertThat(bench.payload().profilers()).as(bench.name()).contains("gc");
                }
            }
        }
    }

    @Test
    void theHalfHeldPresetDoesAsMuchWorkOutsideAsInside() throws IOException {
        List<BenchConfig.Bench> benches =
                BenchConfig.read(CONFIGS.resolve("half-held.json")).benches();
        assertThat(benches).hasSize(2);
        for (BenchConfig.Bench bench : benches) {
            assertThat(bench.payload().beforeCpuTokens())
                    .as(bench.name())
                    .isPositive()
                    .isEqualTo(bench.payload().inCpuTokens());
            assertThat(bench.payload().locks()).as("no list: every LockType").isNull();
        }
    }

    @Test
    void profilersAndJvmArgumentsAreRead(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path file = dir.resolve("p.json");
        Files.writeString(
                file,
                "{\"title\": \"t\", \"benches\": [{\"name\": \"x\", \"payload\": {\"recordWaits\": false,"
                        + " \"profilers\": [\"gc\", \"perfnorm\"], \"jvmArgs\": [\"-XX:+UseNUMA\"]}}]}");
        BenchConfig.Payload p = BenchConfig.read(file).benches().getFirst().payload();
        assertThat(p.recordWaits()).isFalse();
        assertThat(p.profilers()).containsExactly("gc", "perfnorm");
        assertThat(p.jvmArgs()).containsExactly("-XX:+UseNUMA");
        assertThat(BenchConfig.read(file).benches().getFirst().kind()).isEqualTo(BenchmarkKind.CONTENTION);
    }

    @Test
    void aTypoInAFieldIsAnError(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path file = dir.resolve("bad.json");
        Files.writeString(file, "{\"benches\": [{\"name\": \"x\", \"payload\": {\"actionCount\": 5}}]}");
        assertThatThrownBy(() -> BenchConfig.read(file)).hasMessageContaining("actionCount");
    }
}
