package dev.wordstats.benchmarks.runner;

import java.util.List;
import java.util.Locale;

/** The results as a fixed-width table for the console (and the Markdown report's text form). */
final class ConsoleTable {

    private ConsoleTable() {}

    static String format(List<ResultRow> rows) {
        StringBuilder out = new StringBuilder(String.format(
                Locale.ROOT,
                "%-28s %-34s %-17s %14s %9s %8s %9s %9s %9s%n",
                "bench",
                "benchmark",
                "lock",
                "throughput/s",
                "±%",
                "ratio",
                "cs-eff",
                "p99(us)",
                "jain"));
        for (ResultRow r : rows) {
            Double p99 = r.secondary().get("waitP99Us");
            Double jain = r.secondary().get("fairness");
            out.append(String.format(
                    Locale.ROOT,
                    "%-28s %-34s %-17s %14.1f %9s %8s %9s %9s %9s%n",
                    r.bench(),
                    r.benchmark(),
                    r.lock(),
                    r.throughput(),
                    Double.isFinite(r.throughputError())
                            ? String.format(Locale.ROOT, "%.1f", 100 * r.throughputError() / r.throughput())
                            : "-",
                    fmt(r.ratioToBestReentrant(), "%.3f"),
                    fmt(r.csEfficiency(), "%.3f"),
                    p99 == null ? "-" : fmt(p99, "%.1f"),
                    jain == null ? "-" : fmt(jain, "%.3f")));
        }
        return out.toString();
    }

    static String fmt(double v, String pattern) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, pattern, v) : "-";
    }
}
