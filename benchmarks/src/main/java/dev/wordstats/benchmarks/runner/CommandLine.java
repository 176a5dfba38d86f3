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
 */
record CommandLine(List<Path> configs, Path out, String only, boolean verify, boolean report) {

    static final String USAGE = "usage: BenchRunner --config FILE [--out DIR] [--only BENCH] [--verify] [--report]"
            + " | BenchRunner --all CONFIG_DIR [--presets NAME,NAME] [--out DIR] [--verify]";

    static CommandLine parse(String... args) {
        Path config = null;
        Path all = null;
        Path out = null;
        String only = null;
        String presets = null;
        boolean verify = false;
        boolean report = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--verify" -> verify = true;
                case "--report" -> report = true;
                case "--config", "--all", "--out", "--only", "--presets" -> {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException(arg + " needs a value; " + USAGE);
                    }
                    String value = args[++i];
                    switch (arg) {
                        case "--config" -> config = Path.of(value);
                        case "--all" -> all = Path.of(value);
                        case "--out" -> out = Path.of(value);
                        case "--only" -> only = value;
                        default -> presets = value;
                    }
                }
                default -> throw new IllegalArgumentException("bad argument '" + arg + "'; " + USAGE);
            }
        }
        if ((config == null) == (all == null)) {
            throw new IllegalArgumentException("give --config FILE or --all CONFIG_DIR; " + USAGE);
        }
        if (config != null) {
            String name = presetName(config);
            return new CommandLine(
                    List.of(config),
                    out != null ? out : Path.of("benchmarks/target/bench-results", name),
                    only,
                    verify,
                    report);
        }
        return new CommandLine(
                presets(all, presets),
                out != null ? out : Path.of("benchmarks/target/bench-report"),
                only,
                verify,
                true);
    }

    /** The configs of a folder: the named presets in that order, or every one but the smoke. */
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
        java.io.File[] files = dir.toFile().listFiles((d, n) -> n.endsWith(".json") && !n.equals("smoke.json"));
        if (files == null || files.length == 0) {
            throw new IllegalArgumentException("no presets (*.json) in " + dir);
        }
        return Arrays.stream(files).map(java.io.File::toPath).sorted().toList();
    }

    static String presetName(Path config) {
        return config.getFileName().toString().replaceFirst("\\.json$", "");
    }
}
