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
    void allRunsEveryPresetButTheSmokeAndWritesTheReport() {
        CommandLine line = CommandLine.parse("--all", "config", "--out", "/tmp/r");
        assertThat(line.report()).isTrue();
        assertThat(line.out()).isEqualTo(Path.of("/tmp/r"));
        assertThat(line.configs())
                .extracting(p -> p.getFileName().toString())
                .contains("high-contention.json", "half-held.json", "throughput.json")
                .doesNotContain("smoke.json")
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
}
