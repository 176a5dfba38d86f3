package dev.wordstats.benchmarks.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.lock.LockType;
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
                        "smoke.json",
                        "regime-matrix.json",
                        "read-write.json");
        for (Path file : files) {
            BenchConfig config = BenchConfig.read(file);
            assertThat(config.benches()).as(file.toString()).isNotEmpty();
            for (BenchConfig.Bench bench : config.benches()) {
                assertThat(bench.kind()).isNotNull();
                if (bench.payload().locks() != null) {
                    assertThat(bench.payload().locks())
                            .allMatch(l -> bench.kind().bounds().contains(l)
                                    || dev.wordstats.numa.lock.LockType.parse(l) != null);
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
    void theRegimeMatrixRunsEveryLockTypeInEveryRowAndTheBoundsBesideTheStripedCounting() throws IOException {
        BenchConfig matrix = BenchConfig.read(CONFIGS.resolve("regime-matrix.json"));
        List<String> lockTypes =
                java.util.Arrays.stream(LockType.values()).map(Enum::name).toList();
        for (BenchConfig.Bench bench : matrix.benches()) {
            assertThat(bench.payload().locks()).as(bench.name()).containsAll(lockTypes);
            assertThat(bench.payload().forks())
                    .as(bench.name() + ": the comparison runs one fork a lock")
                    .isOne();
        }
        List<BenchConfig.Bench> text = matrix.benches().stream()
                .filter(b -> b.kind() == BenchmarkKind.TEXT_STATS)
                .toList();
        assertThat(text)
                .extracting(b -> b.payload().params().get("vocabulary") + "^"
                        + b.payload().params().get("exponent"))
                .containsExactlyInAnyOrder("6^0.0", "50000^1.0");
        for (BenchConfig.Bench bench : text) {
            assertThat(bench.payload().locks()).contains("CHM_LONG_ADDER", "PER_THREAD_MAPS", "SPIN_BOUND");
            assertThat(bench.payload().params())
                    .containsEntry("stripes", "1,4,64")
                    .containsEntry("granularity", "word,line")
                    .containsEntry("wordsPerLine", "20");
            assertThat(bench.payload().threads()).isEqualTo(64);
        }
        assertThat(matrix.benches())
                .filteredOn(b -> b.kind() == BenchmarkKind.CONTENTION)
                .extracting(BenchConfig.Bench::name)
                .containsExactly(
                        "cs02us",
                        "cs02us-kept",
                        "cs2us",
                        "cs2us-kept",
                        "yield",
                        "yield-kept",
                        "half",
                        "half-kept",
                        "low",
                        "uncontended",
                        "sim2-per-node");
        for (String row : List.of("cs02us", "cs2us", "yield", "half")) {
            BenchConfig.Payload cold = matrix.benches().stream()
                    .filter(b -> b.name().equals(row))
                    .findFirst()
                    .orElseThrow()
                    .payload();
            BenchConfig.Payload kept = matrix.benches().stream()
                    .filter(b -> b.name().equals(row + "-kept"))
                    .findFirst()
                    .orElseThrow()
                    .payload();
            assertThat(cold.params()).as(row).isNull();
            assertThat(kept.params()).as(row).containsEntry("newLockEachInvocation", "false");
            assertThat(kept.inCpuTokens()).as(row).isEqualTo(cold.inCpuTokens());
            assertThat(kept.beforeCpuTokens()).as(row).isEqualTo(cold.beforeCpuTokens());
            assertThat(kept.yieldInCrit()).as(row).isEqualTo(cold.yieldInCrit());
            assertThat(kept.actionsCount()).as(row).isEqualTo(cold.actionsCount());
        }
        BenchConfig.Payload twoNodes = matrix.benches().getLast().payload();
        assertThat(twoNodes.simulatedNodes()).isEqualTo(2);
        assertThat(twoNodes.params()).containsEntry("scheduler", "per-node");
    }

    @Test
    void aSmokeKeepsEveryCaseButShrinksEveryRoundAndRunsInTheRunnersJvm() throws IOException {
        BenchConfig matrix = BenchConfig.read(CONFIGS.resolve("regime-matrix.json"));
        BenchConfig smoke = matrix.smoke();

        assertThat(smoke.title()).endsWith("(smoke: not a measurement)");
        assertThat(smoke.benches()).hasSameSizeAs(matrix.benches());
        for (int i = 0; i < matrix.benches().size(); i++) {
            BenchConfig.Payload real = matrix.benches().get(i).payload();
            BenchConfig.Payload small = smoke.benches().get(i).payload();
            String name = smoke.benches().get(i).name();
            assertThat(small.locks()).as(name).isEqualTo(real.locks());
            assertThat(small.threads()).as(name).isEqualTo(real.threads());
            assertThat(small.inCpuTokens()).as(name).isEqualTo(real.inCpuTokens());
            assertThat(small.forks()).as(name).isZero();
            assertThat(small.forRun(List.of("SYNCHRONIZED"), null, null, null).forks())
                    .as(name + ": a run of the comparison stays in the runner's JVM")
                    .isZero();
            assertThat(small.warmupIterations()).isZero();
            assertThat(small.measurementIterations()).isOne();
            if (real.actionsCount() != null) {
                long tokens = (long) small.actionsCount() * (1 + small.beforeCpuTokens() + small.inCpuTokens());
                assertThat(small.actionsCount()).as(name).isGreaterThanOrEqualTo(small.threads());
                assertThat(small.actionsCount() == small.threads() || tokens <= 2 * BenchConfig.SMOKE_TOKENS)
                        .as(name + ": a few ms of work")
                        .isTrue();
            } else {
                String shrunk = smoke.benches().get(i).kind() == BenchmarkKind.READ_WRITE ? "operations" : "lines";
                int size = shrunk.equals("lines") ? BenchConfig.SMOKE_LINES : BenchConfig.SMOKE_OPERATIONS;
                assertThat(small.params()).containsEntry(shrunk, String.valueOf(size));
                real.params().forEach((k, v) -> {
                    if (!k.equals(shrunk)) {
                        assertThat(small.params()).containsEntry(k, v);
                    }
                });
            }
        }
        assertThat(matrix.benches()
                        .getFirst()
                        .payload()
                        .forRun(List.of("SYNCHRONIZED"), null, null, null)
                        .forks())
                .isOne();
    }

    @Test
    void aTypoInAFieldIsAnError(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path file = dir.resolve("bad.json");
        Files.writeString(file, "{\"benches\": [{\"name\": \"x\", \"payload\": {\"actionCount\": 5}}]}");
        assertThatThrownBy(() -> BenchConfig.read(file)).hasMessageContaining("actionCount");
    }
}
