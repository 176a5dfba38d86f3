package dev.wordstats.benchmarks.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CommandLineTest {

    @Test
    void oneConfigWritesToItsOwnFolderByDefault() {
        CommandLine line = CommandLine.parse("--config", "config/high-contention.json", "--verify");
        assertThat(line.configs()).containsExactly(Path.of("config/high-contention.json"));
        assertThat(line.out()).isEqualTo(Path.of("benchmarks/target/bench-results/high-contention"));
        assertThat(line.verify()).isTrue();
        assertThat(line.report()).isFalse();
    }

    @Test
    void smokeIsOffUnlessAsked() {
        assertThat(CommandLine.parse("--config", "c.json").smoke()).isFalse();
        assertThat(CommandLine.parse("--config", "c.json", "--interleave", "2", "--smoke")
                        .smoke())
                .isTrue();
    }

    @Test
    void allRunsEveryPresetButTheSmokeAndWritesTheReport() {
        CommandLine line = CommandLine.parse("--all", "config", "--out", "/tmp/r");
        assertThat(line.report()).isTrue();
        assertThat(line.out()).isEqualTo(Path.of("/tmp/r"));
        assertThat(line.configs())
                .extracting(p -> p.getFileName().toString())
                .contains("high-contention.json", "half-held.json", "throughput.json")
                .doesNotContain("smoke.json", "smoke-interleaved.json")
                .isSorted();
    }

    @Test
    void presetsPickSomeInTheGivenOrder() {
        CommandLine line = CommandLine.parse("--all", "config", "--presets", "smoke,uncontended.json");
        assertThat(line.configs())
                .extracting(p -> p.getFileName().toString())
                .containsExactly("smoke.json", "uncontended.json");
    }

    @Test
    void badCommandLinesSayTheUsage() {
        assertThatThrownBy(CommandLine::parse).hasMessageContaining("usage");
        assertThatThrownBy(() -> CommandLine.parse("--config", "a.json", "--all", "config"))
                .hasMessageContaining("--config FILE or --all");
        assertThatThrownBy(() -> CommandLine.parse("--config")).hasMessageContaining("needs a value");
        assertThatThrownBy(() -> CommandLine.parse("--all", "config", "--presets", "nope"))
                .hasMessageContaining("no preset");
        assertThatThrownBy(() -> CommandLine.parse("--frobnicate")).hasMessageContaining("bad argument");
    }

    @Test
    void interleaveComparesTheLocksOfOneConfigAgainstTheNonFairLockByDefault() {
        CommandLine line = CommandLine.parse("--config", "config/targets.json", "--interleave", "3");
        assertThat(line.interleave()).isEqualTo(3);
        assertThat(line.against()).isEqualTo("UNFAIR_REENTRANT");
        assertThat(line.floor()).isTrue();
        assertThat(line.locks()).isNull();
        assertThat(line.out()).isEqualTo(Path.of("benchmarks/target/bench-results/targets-interleaved"));

        CommandLine chosen = CommandLine.parse(
                "--config",
                "config/targets.json",
                "--interleave",
                "2",
                "--against",
                "FAIR_REENTRANT",
                "--no-floor",
                "--locks",
                "FAIR_REENTRANT, NUMA_HANDOFF");
        assertThat(chosen.against()).isEqualTo("FAIR_REENTRANT");
        assertThat(chosen.floor()).isFalse();
        assertThat(chosen.locks()).containsExactly("FAIR_REENTRANT", "NUMA_HANDOFF");

        assertThat(CommandLine.parse("--config", "config/targets.json").interleave())
                .isZero();
    }

    @Test
    void anInterleavedComparisonNeedsTwoRepeatsAndOneConfig() {
        assertThatThrownBy(() -> CommandLine.parse("--config", "a.json", "--interleave", "1"))
                .hasMessageContaining("at least 2 repeats");
        assertThatThrownBy(() -> CommandLine.parse("--config", "a.json", "--interleave", "many"))
                .hasMessageContaining("whole number");
        assertThatThrownBy(() -> CommandLine.parse("--all", "config", "--interleave", "3"))
                .hasMessageContaining("one --config FILE");
        assertThatThrownBy(() -> CommandLine.parse("--config", "a.json", "--against", "FAIR_REENTRANT"))
                .hasMessageContaining("belong to --interleave");
    }
}
