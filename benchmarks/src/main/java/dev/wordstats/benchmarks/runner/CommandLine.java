package dev.wordstats.benchmarks.runner;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The runner's command line.
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

    static CommandLine parse(String... args) {
        Path config = null;
        Path all = null;
        Path out = null;
        String only = null;
        String presets = null;
        boolean verify = false;
        boolean report = false;
        boolean floor = true;
        boolean smoke = false;
        String interleave = null;
        String against = null;
        String locks = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--verify" -> verify = true;
                case "--report" -> report = true;
                case "--no-floor" -> floor = false;
                case "--smoke" -> smoke = true;
                case "--config", "--all", "--out", "--only", "--presets", "--interleave", "--against", "--locks" -> {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException(arg + " needs a value; " + USAGE);
                    }
                    String value = args[++i];
                    switch (arg) {
                        case "--config" -> config = Path.of(value);
                        case "--all" -> all = Path.of(value);
                        case "--out" -> out = Path.of(value);
                        case "--only" -> only = value;
                        case "--interleave" -> interleave = value;
                        case "--against" -> against = value;
                        case "--locks" -> locks = value;
                        default -> presets = value;
                    }
                }
                default -> throw new IllegalArgumentException("bad argument '" + arg + "'; " + USAGE);
            }
        }
        if ((config == null) == (all == null)) {
            throw new IllegalArgumentException("give --config FILE or --all CONFIG_DIR; " + USAGE);
        }
        int repeats = repeats(interleave);
        if (repeats == 0 && (against != null || !floor || locks != null)) {
            throw new IllegalArgumentException("--locks, --against and --no-floor belong to --interleave N; " + USAGE);
        }
        List<String> lockList = locks == null
                ? null
                : Arrays.stream(locks.split(","))
                        .map(String::strip)
                        .filter(l -> !l.isEmpty())
                        .toList();
        if (config != null) {
            String name = presetName(config);
            return new CommandLine(
                    List.of(config),
                    out != null
                            ? out
                            : Path.of("benchmarks/target/bench-results", name + (repeats > 0 ? "-interleaved" : "")),
                    only,
                    verify,
                    report,
                    repeats,
                    against != null ? against : DEFAULT_AGAINST,
                    floor,
                    lockList,
                    smoke);
        }
        if (repeats > 0) {
            throw new IllegalArgumentException("--interleave compares the locks of one --config FILE; " + USAGE);
        }
        return new CommandLine(
                presets(all, presets),
                out != null ? out : Path.of("benchmarks/target/bench-report"),
                only,
                verify,
                true,
                0,
                DEFAULT_AGAINST,
                true,
                null,
                smoke);
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
