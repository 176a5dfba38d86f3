package dev.wordstats.benchmarks.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.wordstats.benchmarks.runner.InterleavedRounds.Options;
import dev.wordstats.benchmarks.runner.InterleavedRounds.Result;
import dev.wordstats.benchmarks.runner.InterleavedRounds.Round;
import dev.wordstats.comparison.Spread;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class InterleavedRoundsTest {

    @Test
    void theDefaultLocksAreTheReferencesAndOneCandidate() {
        assertThat(Options.parse("text").locks)
                .containsExactly("UNFAIR_REENTRANT", "SYNCHRONIZED", InterleavedRounds.DEFAULT_CANDIDATE);
        assertThat(Options.parse("hot", "--locks", "SYNCHRONIZED,NUMA_HANDOFF").locks)
                .containsExactly("SYNCHRONIZED", "NUMA_HANDOFF");
    }

    @Test
    void twoCandidatesInOneJvmAreRefused() {
        assertThatThrownBy(() -> Options.parse("text", "--locks", "SYNCHRONIZED,NUMA_HANDOFF,NUMA_MONITOR"))
                .hasMessageContaining("one candidate");
        assertThatThrownBy(() -> Options.parse("text", "--locks", "NUMA_MCS,CHM_LONG_ADDER"))
                .hasMessageContaining("megamorphic");
    }

    @Test
    void badOptionsAreRefusedBeforeAnyRound() {
        assertThatThrownBy(() -> Options.parse("text", "--stripes", "0")).hasMessageContaining("--stripes");
        assertThatThrownBy(() -> Options.parse("text", "--granularity", "page")).hasMessageContaining("word or line");
        assertThatThrownBy(() -> Options.parse("hot", "--locks", "SYNCHRONIZED,NO_SUCH_LOCK"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Options.parse("hot", "--locks", "CHM_LONG_ADDER"))
                .as("a lock-free store is no hot lock")
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Options.parse("cold")).hasMessageContaining("text or hot");
    }

    @Test
    void ratiosAreTakenRoundByRoundAsThroughputOverTheReference() {
        Options o = Options.parse("hot", "--locks", "SYNCHRONIZED,UNFAIR_REENTRANT,NUMA_MONITOR");
        Map<String, List<Round>> rounds = new LinkedHashMap<>();
        rounds.put("SYNCHRONIZED", List.of(round(100), round(200)));
        rounds.put("UNFAIR_REENTRANT", List.of(round(200), round(100)));
        rounds.put("NUMA_MONITOR", List.of(round(50), round(100)));
        Result result = new Result(o, rounds);

        Spread monitorOverUnfair = InterleavedRounds.ratio(result, "NUMA_MONITOR", "UNFAIR_REENTRANT");
        assertThat(monitorOverUnfair.min()).isCloseTo(1.0, within(1e-9)); // 100 / 100
        assertThat(monitorOverUnfair.max()).isCloseTo(4.0, within(1e-9)); // 200 / 50
        Spread monitorOverSync = InterleavedRounds.ratio(result, "NUMA_MONITOR", "SYNCHRONIZED");
        assertThat(monitorOverSync.min()).isCloseTo(2.0, within(1e-9));

        String table = InterleavedRounds.markdown(result, "1.00", "2.00");
        assertThat(table)
                .contains("| NUMA_MONITOR |")
                .contains("2.00 (2.00–2.00) faster") // over SYNCHRONIZED: both rounds agree
                .contains("2.50 (1.00–4.00) no measurable difference") // over UNFAIR: one round is a tie
                .contains("load 1.00 before, 2.00 after");
    }

    @Test
    void theTableShowsTheModeSwitchesARoundOfEachLockWithModes() {
        Options o = Options.parse("text", "--locks", "UNFAIR_REENTRANT,SYNCHRONIZED,NUMA_MONITOR");
        Map<String, List<Round>> rounds = new LinkedHashMap<>();
        rounds.put("UNFAIR_REENTRANT", List.of(round(100), round(100)));
        rounds.put("SYNCHRONIZED", List.of(round(100), round(100)));
        rounds.put(
                "NUMA_MONITOR",
                List.of(
                        new Round(100, new long[0], 1, Double.NaN, Double.NaN),
                        new Round(100, new long[0], 2, Double.NaN, Double.NaN)));
        String table = InterleavedRounds.markdown(new Result(o, rounds), "0", "0");
        assertThat(table).containsPattern("\\| NUMA_MONITOR \\|.*\\| 1\\.5 \\|\n");
        assertThat(table).containsPattern("\\| SYNCHRONIZED \\|.*\\|  \\|\n");
    }

    @Test
    @Timeout(60)
    void aTextRunCountsEveryWordWithEveryLockInEveryRound() throws Exception {
        Options o = Options.parse(
                "text",
                "--locks",
                "SYNCHRONIZED,UNFAIR_REENTRANT,PER_THREAD_MAPS",
                "--rounds",
                "2",
                "--warmup",
                "1",
                "--threads",
                "8",
                "--lines",
                "500",
                "--vocabulary",
                "50",
                "--stripes",
                "4");
        Result result = InterleavedRounds.run(o); // throws when a round's total is wrong
        assertThat(result.rounds()).containsOnlyKeys(o.locks);
        result.rounds()
                .values()
                .forEach(rounds -> assertThat(rounds)
                        .hasSize(2)
                        .allSatisfy(r -> assertThat(r.nanos()).isPositive()));
        assertThat(InterleavedRounds.markdown(result, "0", "0")).contains("| PER_THREAD_MAPS |");
        Options byDefault = Options.parse(
                "text", "--rounds", "1", "--warmup", "0", "--threads", "8", "--lines", "500", "--vocabulary", "50");
        assertThat(InterleavedRounds.run(byDefault).rounds().get("NUMA_MONITOR"))
                .hasSize(1);
    }

    @Test
    @Timeout(60)
    void aHotRunSharesTheBudgetAmongTheThreads() throws Exception {
        Options o = Options.parse(
                "hot",
                "--locks",
                "UNFAIR_REENTRANT,NUMA_MONITOR",
                "--rounds",
                "2",
                "--warmup",
                "0",
                "--threads",
                "8",
                "--actions",
                "4000",
                "--tokens",
                "10");
        Result result = InterleavedRounds.run(o);
        for (List<Round> rounds : result.rounds().values()) {
            for (Round r : rounds) {
                assertThat(r.shares()).hasSize(8);
                assertThat(java.util.Arrays.stream(r.shares()).sum()).isEqualTo(4000);
            }
        }
        for (List<Round> rounds : result.rounds().values()) {
            for (Round r : rounds) {
                assertThat(r.waitP99Nanos()).isPositive().isLessThanOrEqualTo(r.waitMaxNanos());
                assertThat(r.waitMaxNanos()).isLessThanOrEqualTo(r.nanos());
            }
        }
        assertThat(InterleavedRounds.markdown(result, "0", "0")).contains("| Jain | wait p99 µs | wait max ms |");
    }

    @Test
    void aHotTableShowsTheWaitsOfEveryLockAndATextTableHasNoWaitColumns() {
        Map<String, List<Round>> rounds = new LinkedHashMap<>();
        rounds.put("UNFAIR_REENTRANT", List.of(round(100), round(100)));
        rounds.put("SYNCHRONIZED", List.of(round(100), round(100)));
        String hot = InterleavedRounds.markdown(new Result(Options.parse("hot"), rounds), "0", "0");
        // round(): wait p99 2,000 ns, max 50,000 ns
        assertThat(hot)
                .containsPattern(
                        "\\| SYNCHRONIZED \\|.*\\| 2\\.0 \\(2\\.0–2\\.0\\) \\| 0\\.05 \\(0\\.05–0\\.05\\) \\|");
        String text = InterleavedRounds.markdown(new Result(Options.parse("text"), rounds), "0", "0");
        assertThat(text).doesNotContain("wait p99");
    }

    private static Round round(long nanos) {
        return new Round(nanos, new long[] {1, 1}, 0, 2_000, 50_000);
    }
}
