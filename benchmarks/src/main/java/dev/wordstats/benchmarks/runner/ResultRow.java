package dev.wordstats.benchmarks.runner;

import java.util.Map;
import java.util.TreeMap;

/**
 * One JMH result (one benchmark method with one parameter set), as the runner reports it.
 *
 * @param bench the config bench's name
 * @param benchmark {@code Class.method}
 * @param lock the {@code lockType} parameter, or {@code "-"} when the benchmark has none
 * @param params every JMH parameter except {@code lockType}
 * @param score JMH's primary score (mean over iterations and forks)
 * @param scoreError JMH's 99.9% confidence half-width (NaN with too few samples)
 * @param scoreUnit e.g. {@code ms/op}
 * @param throughput units per second ({@code unit}: actions, lines, lock+unlock...)
 * @param throughputError half-width of the throughput's interval (the score's relative error)
 * @param unit what {@code throughput} counts
 * @param ratioToBestReentrant throughput / the higher of FAIR_REENTRANT and UNFAIR_REENTRANT with
 *        the same parameters, NaN when there is none
 * @param csEfficiency throughput x calibrated critical-section length, NaN when not measured
 * @param secondary the secondary results, each the mean of its per-iteration values
 */
public record ResultRow(
        String bench,
        String benchmark,
        String lock,
        Map<String, String> params,
        double score,
        double scoreError,
        String scoreUnit,
        double throughput,
        double throughputError,
        String unit,
        double ratioToBestReentrant,
        double csEfficiency,
        Map<String, Double> secondary) {

    public ResultRow {
        params = new TreeMap<>(params);
        secondary = new TreeMap<>(secondary);
    }

    ResultRow withRatio(double ratio) {
        return new ResultRow(
                bench,
                benchmark,
                lock,
                params,
                score,
                scoreError,
                scoreUnit,
                throughput,
                throughputError,
                unit,
                ratio,
                csEfficiency,
                secondary);
    }

    /** The bench, method and parameters apart from the lock: rows of one group differ only in lock. */
    String groupKey() {
        return bench + '|' + benchmark + '|' + params;
    }

    /** Chart label of the group: the method, and the bench when a config has several. */
    String groupLabel() {
        String method = benchmark.substring(benchmark.indexOf('.') + 1);
        return bench + ("actions".equals(method) || "countAllLines".equals(method) ? "" : ":" + method);
    }
}
