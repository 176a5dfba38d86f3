package dev.wordstats.benchmarks.runner;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The runner's command line, parsed by picocli; what picocli cannot say (which options go together,
 * the defaults that depend on others) is checked here.
 *
 * <pre>
 * BenchRunner --config FILE [--out DIR] [--only BENCH] [--verify]
 * BenchRunner --config FILE --interleave N [--locks A,B] [--against LOCK] [--no-floor] [--out DIR] [--only BENCH]
 *     [--smoke]
 * BenchRunner --all CONFIG_DIR [--presets a,b] [--out DIR] [--verify]
 * </pre>
 *
 * @param configs the configs to run: one with {@code --config}, every {@code *.json} of the folder
 *     with {@code --all} (less {@code smoke.json}, unless {@code --presets} names it)
 * @param out the output folder: the config's results for one config, one subfolder per config and
 *     {@code report.md} for {@code --all}
 * @param only one bench of the config, or null
 * @param verify exit 1 unless every output was written and every score is positive
 * @param report whether to write the combined Markdown report ({@code --all}, or {@code --report})
 * @param interleave repeats of an interleaved comparison ({@link InterleavedComparison}), 0 for a
 *     plain run: each repeat runs every lock once, one fork each, in an order rotated per repeat
 * @param against the lock the comparison's ratios are taken to ({@code --against}, default
 *     {@code UNFAIR_REENTRANT})
 * @param floor whether the comparison also runs the one-thread serial floor ({@code --no-floor}: not)
 * @param locks the lock types the comparison runs in every bench ({@code --locks}), or null for each
 *     bench's own
 * @param smoke run every bench of the config shrunk to seconds, in the runner's JVM
 *     ({@link BenchConfig#smoke()}): proves the config runs, measures nothing
 */
record CommandLine(
        List<Path> configs,
        Path out,
        String only,
        boolean verify,
        boolean report,
        int interleave,
        String against,
        boolean floor,
        List<String> locks,
        boolean smoke) {

    static final String USAGE = "usage: BenchRunner --config FILE [--out DIR] [--only BENCH] [--verify] [--report]"
            + " [--interleave N [--locks A,B] [--against LOCK] [--no-floor]] [--smoke]"
            + " | BenchRunner --all CONFIG_DIR [--presets NAME,NAME] [--out DIR] [--verify]";

    /** The lock an interleaved comparison measures the others against unless told otherwise. */
    static final String DEFAULT_AGAINST = "UNFAIR_REENTRANT";

    /** The options as picocli binds them; {@link #parse} checks how they go together. */
    @Command(name = "BenchRunner")
    private static final class Options {
        @Option(names = "--config", paramLabel = "FILE", description = "the preset to run")
        Path config;

        @Option(names = "--all", paramLabel = "CONFIG_DIR", description = "run every preset of the folder")
        Path all;

        @Option(names = "--out", paramLabel = "DIR", description = "the output folder")
        Path out;

        @Option(names = "--only", paramLabel = "BENCH", description = "one bench of the config")
        String only;

        @Option(names = "--presets", paramLabel = "NAME,NAME", description = "the presets of --all, in order")
        String presets;

        @Option(names = "--verify", description = "exit 1 unless every output was written")
        boolean verify;

        @Option(names = "--report", description = "write the combined Markdown report")
        boolean report;

        @Option(names = "--no-floor", description = "no serial floor in the comparison")
        boolean noFloor;

        @Option(names = "--smoke", description = "every bench shrunk to seconds, in this JVM")
        boolean smoke;

        @Option(names = "--interleave", paramLabel = "N", description = "repeats of an interleaved comparison")
        String interleave;

        @Option(names = "--against", paramLabel = "LOCK", description = "the comparison's reference lock")
        String against;

        @Option(names = "--locks", paramLabel = "A,B", description = "the lock types the comparison runs")
        String locks;
    }

    static CommandLine parse(String... args) {
        Options o = new Options();
        try {
            new picocli.CommandLine(o).setOverwrittenOptionsAllowed(true).parseArgs(args);
        } catch (MissingParameterException e) {
            String option = e.getMissing().stream()
                    .filter(OptionSpec.class::isInstance)
                    .map(spec -> ((OptionSpec) spec).longestName())
                    .findFirst()
                    .orElse("an option");
            throw new IllegalArgumentException(option + " needs a value; " + USAGE, e);
        } catch (UnmatchedArgumentException e) {
            throw new IllegalArgumentException(
                    "bad argument '" + String.join(" ", e.getUnmatched()) + "'; " + USAGE, e);
        } catch (ParameterException e) {
            throw new IllegalArgumentException(e.getMessage() + "; " + USAGE, e);
        }
        if ((o.config == null) == (o.all == null)) {
            throw new IllegalArgumentException("give --config FILE or --all CONFIG_DIR; " + USAGE);
        }
        boolean floor = !o.noFloor;
        int repeats = repeats(o.interleave);
        if (repeats == 0 && (o.against != null || !floor || o.locks != null)) {
            throw new IllegalArgumentException("--locks, --against and --no-floor belong to --interleave N; " + USAGE);
        }
        List<String> lockList = o.locks == null
                ? null
                : Arrays.stream(o.locks.split(","))
                        .map(String::strip)
                        .filter(l -> !l.isEmpty())
                        .toList();
        if (o.config != null) {
            String name = presetName(o.config);
            return new CommandLine(
                    List.of(o.config),
                    o.out != null
                            ? o.out
                            : Path.of("benchmarks/target/bench-results", name + (repeats > 0 ? "-interleaved" : "")),
                    o.only,
                    o.verify,
                    o.report,
                    repeats,
                    o.against != null ? o.against : DEFAULT_AGAINST,
                    floor,
                    lockList,
                    o.smoke);
        }
        if (repeats > 0) {
            throw new IllegalArgumentException("--interleave compares the locks of one --config FILE; " + USAGE);
        }
        return new CommandLine(
                presets(o.all, o.presets),
                o.out != null ? o.out : Path.of("benchmarks/target/bench-report"),
                o.only,
                o.verify,
                true,
                0,
                DEFAULT_AGAINST,
                true,
                null,
                o.smoke);
    }

    /** The value of {@code --interleave}: 0 when absent, else at least 2 (one repeat has no spread). */
    private static int repeats(String value) {
        if (value == null) {
            return 0;
        }
        int repeats;
        try {
            repeats = Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--interleave needs a whole number of repeats, was '" + value + "'");
        }
        if (repeats < 2) {
            throw new IllegalArgumentException(
                    "--interleave needs at least 2 repeats (one has no spread to tell a difference from noise), was "
                            + repeats);
        }
        return repeats;
    }

    /** The configs of a folder: the named presets in that order, or every one but the smokes ({@code smoke*.json}). */
    static List<Path> presets(Path dir, String names) {
        if (names != null && !names.isBlank()) {
            List<Path> files = new ArrayList<>();
            for (String name : names.split(",")) {
                Path file = dir.resolve(name.strip().replaceFirst("\\.json$", "") + ".json");
                if (!file.toFile().isFile()) {
                    throw new IllegalArgumentException("no preset " + file);
                }
                files.add(file);
            }
            return List.copyOf(files);
        }
        java.io.File[] files = dir.toFile().listFiles((d, n) -> n.endsWith(".json") && !n.startsWith("smoke"));
        if (files == null || files.length == 0) {
            throw new IllegalArgumentException("no presets (*.json) in " + dir);
        }
        return Arrays.stream(files).map(java.io.File::toPath).sorted().toList();
    }

    static String presetName(Path config) {
        return config.getFileName().toString().replaceFirst("\\.json$", "");
    }
}
