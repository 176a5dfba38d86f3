package dev.wordstats.benchmarks.runner;

import java.nio.file.Path;
import java.util.List;

/**
 * What one preset's run produced, for the combined report.
 *
 * @param name the preset's file name without {@code .json}
 * @param title the config's title
 * @param config the config file
 * @param dir where its files went
 * @param rows its results
 * @param charts its chart files
 * @param loadBefore the load average when it started
 * @param loadAfter the load average when it ended
 * @param seconds how long it took
 * @param failure why the preset did not finish, or null
 */
record PresetRun(
        String name,
        String title,
        Path config,
        Path dir,
        List<ResultRow> rows,
        List<Path> charts,
        String loadBefore,
        String loadAfter,
        long seconds,
        String failure) {

    static PresetRun failed(Path config, Path dir, String loadBefore, long seconds, Exception e) {
        return new PresetRun(
                CommandLine.presetName(config),
                "FAILED",
                config,
                dir,
                List.of(),
                List.of(),
                loadBefore,
                MachineDescription.loadAverage(),
                seconds,
                String.valueOf(e));
    }
}
