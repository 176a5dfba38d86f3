package dev.wordstats.benchmarks.runner;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The derived figures over a run's rows: ratios to the best ReentrantLock of each group. */
final class ResultTable {

    static final String FAIR = "FAIR_REENTRANT";
    static final String UNFAIR = "UNFAIR_REENTRANT";

    private ResultTable() {}

    /** Rows with {@link ResultRow#ratioToBestReentrant()} filled in, in the same order. */
    static List<ResultRow> withRatios(List<ResultRow> rows) {
        Map<String, Double> bestReentrant = new LinkedHashMap<>();
        for (ResultRow row : rows) {
            if (FAIR.equals(row.lock()) || UNFAIR.equals(row.lock())) {
                bestReentrant.merge(row.groupKey(), row.throughput(), Math::max);
            }
        }
        List<ResultRow> out = new ArrayList<>(rows.size());
        for (ResultRow row : rows) {
            Double best = bestReentrant.get(row.groupKey());
            out.add(row.withRatio(best == null || best <= 0 ? Double.NaN : row.throughput() / best));
        }
        return out;
    }

    /** Units of a JMH score unit such as {@code ms/op} or {@code ops/s}, in seconds. */
    static double secondsPer(String timeUnit) {
        return switch (timeUnit) {
            case "ns" -> 1e-9;
            case "us" -> 1e-6;
            case "ms" -> 1e-3;
            case "s" -> 1.0;
            case "min" -> 60.0;
            default -> throw new IllegalArgumentException("unknown time unit " + timeUnit);
        };
    }

    /**
     * Units per second from a JMH score: {@code x/op} scores (time per op) invert, {@code ops/x}
     * scores (throughput) scale; {@code unitsPerOp} is how many counted units one op is.
     */
    static double throughput(double score, String scoreUnit, double unitsPerOp) {
        String[] parts = scoreUnit.split("/");
        if (parts.length != 2) {
            throw new IllegalArgumentException("unexpected score unit " + scoreUnit);
        }
        if ("op".equals(parts[1])) {
            return unitsPerOp / (score * secondsPer(parts[0]));
        }
        return score * unitsPerOp / secondsPer(parts[1]);
    }
}
