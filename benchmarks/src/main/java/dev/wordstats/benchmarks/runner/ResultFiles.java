package dev.wordstats.benchmarks.runner;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The files a run writes besides the charts: {@code results.csv} and {@code results.json}. */
final class ResultFiles {

    /** The secondary results that get a CSV column of their own (profiler results stay in the JSON). */
    static final List<String> SECONDARY_COLUMNS = List.of(
            "waitP50Us",
            "waitP99Us",
            "waitMaxUs",
            "fairness",
            "crossNodePct",
            "csNanos",
            "sampleP50",
            "sampleMin",
            "readsPerSec",
            "writesPerSec");

    private ResultFiles() {}

    static void writeCsv(List<ResultRow> rows, Path csv) throws IOException {
        List<String> paramKeys = rows.stream()
                .flatMap(r -> r.params().keySet().stream())
                .distinct()
                .sorted()
                .toList();
        List<String> header = new ArrayList<>(List.of("bench", "benchmark", "lock"));
        header.addAll(paramKeys);
        header.addAll(List.of(
                "score",
                "scoreError",
                "scoreUnit",
                "throughput",
                "throughputError",
                "unit",
                "ratioToBestReentrant",
                "csEfficiency"));
        header.addAll(SECONDARY_COLUMNS);
        List<List<String>> records = new ArrayList<>();
        for (ResultRow r : rows) {
            List<String> cells = new ArrayList<>(List.of(r.bench(), r.benchmark(), r.lock()));
            for (String key : paramKeys) {
                cells.add(r.params().getOrDefault(key, ""));
            }
            cells.addAll(List.of(
                    num(r.score()),
                    num(r.scoreError()),
                    r.scoreUnit(),
                    num(r.throughput()),
                    num(r.throughputError()),
                    r.unit() + "/s",
                    num(r.ratioToBestReentrant()),
                    num(r.csEfficiency())));
            for (String key : SECONDARY_COLUMNS) {
                Double v = r.secondary().get(key);
                cells.add(v == null ? "" : num(v));
            }
            records.add(cells);
        }
        Files.writeString(csv, CsvFiles.text(header, records), StandardCharsets.UTF_8);
    }

    /** {@code results.json}: the run's context (command, machine, load) and every row. */
    static void writeJson(Path json, Map<String, Object> context, List<ResultRow> rows) throws IOException {
        Map<String, Object> document = new LinkedHashMap<>(context);
        document.put("rows", rows.stream().map(ResultFiles::jsonRow).toList());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), document);
    }

    static Map<String, Object> jsonRow(ResultRow r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("bench", r.bench());
        m.put("benchmark", r.benchmark());
        m.put("lock", r.lock());
        m.put("params", r.params());
        m.put("score", finite(r.score()));
        m.put("scoreError", finite(r.scoreError()));
        m.put("scoreUnit", r.scoreUnit());
        m.put("throughput", finite(r.throughput()));
        m.put("throughputError", finite(r.throughputError()));
        m.put("throughputUnit", r.unit() + "/s");
        m.put("ratioToBestReentrant", finite(r.ratioToBestReentrant()));
        m.put("csEfficiency", finite(r.csEfficiency()));
        m.put("secondary", r.secondary());
        return m;
    }

    private static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }

    static String num(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "";
    }
}
