package dev.wordstats.benchmarks.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code --verify}: every output written, one CSV line per result, every throughput positive. */
final class OutputCheck {

    private OutputCheck() {}

    /** The problems found; empty when the run's outputs are complete. */
    static List<String> problems(List<ResultRow> rows, int benches, Path csv, Path json, List<Path> charts)
            throws IOException {
        List<String> problems = new ArrayList<>();
        if (benches == 0) {
            problems.add("no bench ran");
        }
        if (rows.isEmpty()) {
            problems.add("no results");
        }
        rows.stream().filter(r -> !(r.throughput() > 0)).forEach(r -> problems.add("no throughput: " + r));
        for (Path file : List.of(csv, json)) {
            if (!Files.isRegularFile(file) || Files.size(file) == 0) {
                problems.add("missing or empty " + file);
            }
        }
        if (Files.isRegularFile(csv) && Files.readAllLines(csv).size() != rows.size() + 1) {
            problems.add("CSV has not one line per result");
        }
        if (charts.isEmpty()) {
            problems.add("no chart");
        }
        for (Path chart : charts) {
            if (!Files.isRegularFile(chart) || Files.size(chart) < 1000) {
                problems.add("missing or empty chart " + chart);
            }
        }
        return problems;
    }
}
