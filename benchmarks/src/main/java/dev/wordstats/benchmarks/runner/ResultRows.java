package dev.wordstats.benchmarks.runner;

import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/** JMH's results turned into the runner's {@link ResultRow}s. */
final class ResultRows {

    private ResultRows() {}

    static ResultRow row(BenchConfig.Bench bench, RunResult result) {
        var params = result.getParams();
        Map<String, String> values = new TreeMap<>();
        for (String key : params.getParamsKeys()) {
            values.put(key, params.getParam(key));
        }
        String lock = values.remove("lockType");
        String benchmark = params.getBenchmark();
        String[] parts = benchmark.split("\\.");
        String shortName = parts[parts.length - 2] + "." + parts[parts.length - 1];

        Result<?> primary = result.getPrimaryResult();
        String opsParam = bench.kind().opsParam();
        double unitsPerOp = opsParam == null ? 1.0 : Double.parseDouble(values.get(opsParam));
        double throughput = ResultTable.throughput(primary.getScore(), primary.getScoreUnit(), unitsPerOp);
        double relError = primary.getScoreError() / primary.getScore();
        double throughputError = Double.isFinite(relError) ? throughput * relError : Double.NaN;

        Map<String, Double> secondary = secondaryMeans(result);
        if (params.getMode() == Mode.SampleTime) {
            // A sampled time distribution: its median and fastest sample shrug off preemption.
            secondary.put("sampleP50", primary.getStatistics().getPercentile(50));
            secondary.put("sampleMin", primary.getStatistics().getMin());
        }
        Double csNanos = secondary.get("csNanos");
        double efficiency = csNanos == null ? Double.NaN : throughput * csNanos * 1e-9;
        return new ResultRow(
                bench.name(),
                shortName,
                lock == null ? "-" : lock,
                values,
                primary.getScore(),
                primary.getScoreError(),
                primary.getScoreUnit(),
                throughput,
                throughputError,
                bench.kind().unitName(),
                Double.NaN,
                efficiency,
                secondary);
    }

    /**
     * The mean over all iterations of all forks of each secondary result. (JMH's own summary of an
     * {@code @AuxCounters(EVENTS)} counter is the sum over iterations; the per-iteration value is
     * what the benchmark set.) Profiler results (gc.alloc.rate.norm, perfnorm's cycles/op...) are
     * secondary results too.
     */
    static Map<String, Double> secondaryMeans(RunResult result) {
        Map<String, double[]> sums = new TreeMap<>();
        for (BenchmarkResult fork : result.getBenchmarkResults()) {
            for (IterationResult iteration : fork.getIterationResults()) {
                Map<String, ?> secondary = iteration.getSecondaryResults();
                for (Map.Entry<String, ?> entry : secondary.entrySet()) {
                    double[] sum = sums.computeIfAbsent(entry.getKey(), k -> new double[2]);
                    sum[0] += ((Result<?>) entry.getValue()).getScore();
                    sum[1]++;
                }
            }
        }
        Map<String, Double> means = new TreeMap<>();
        sums.forEach((k, v) -> means.put(k, v[0] / v[1]));
        return means;
    }
}
