package dev.wordstats.benchmarks.runner;

import dev.wordstats.benchmarks.runner.ComparisonFigures.Kind;
import dev.wordstats.benchmarks.runner.ComparisonFigures.Sample;
import dev.wordstats.benchmarks.runner.ComparisonFigures.Verdict;
import dev.wordstats.comparison.Spread;
import dev.wordstats.numa.lock.LockType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * An interleaved comparison as one table: a row per case (a bench with one set of parameters), a
 * column per lock, and in each cell the lock's throughput ratio to each of the two locks a Java user
 * already has ({@link #REFERENCES}: the non-fair {@code ReentrantLock} and {@code synchronized}),
 * each taken within a repeat and summed up as the median of the repeats with their range. A lock is
 * called faster or slower than a reference only when every repeat agrees.
 *
 * <p>Where the comparison ran the serial floor (a contention case), the row also shows its bound: the
 * most any lock could gain over the first reference on this machine ({@link ComparisonFigures}).
 *
 * <p>Each row also names the lock at its top: of the lock types (a lock-free bound is no lock), the
 * one with the highest median ratio to the better reference of each repeat; beside it the lock types
 * that are not slower than it in every repeat, which the measurement cannot tell from it.
 */
final class RegimeMatrix {

    /** The locks every ratio of the table is taken to, in column order of a cell. */
    static final List<String> REFERENCES = List.of("UNFAIR_REENTRANT", "SYNCHRONIZED");

    /**
     * One lock in one row.
     *
     * @param lock the lock type or lock-free store
     * @param throughput units a second over the repeats
     * @param ratios per reference (in {@link #REFERENCES} order), the throughput over the reference's in
     *     the same repeat
     * @param verdicts per reference, what the ratio's range says
     * @param toBest the throughput over the better of the references in the same repeat
     * @param waitP99Us the 99th-percentile wait of a fork (µs) over the repeats, {@link Spread#NONE} where the
     *     bench does not time its waits
     * @param waitMaxUs the longest wait of a fork (µs) over the repeats, likewise
     * @param readsPerSec reads a second of a fork over the repeats, {@link Spread#NONE} where the bench does
     *     not tell reads from writes ({@link dev.wordstats.benchmarks.readwrite.ReadWriteMetrics})
     * @param writesPerSec writes a second of a fork over the repeats, likewise
     */
    record Cell(
            String lock,
            Spread throughput,
            List<Spread> ratios,
            List<Verdict> verdicts,
            Spread toBest,
            Spread waitP99Us,
            Spread waitMaxUs,
            Spread readsPerSec,
            Spread writesPerSec) {}

    /**
     * The per-wait figures a cell shows beside its ratios, by the secondary result each is read from
     * ({@link dev.wordstats.benchmarks.contention.ContentionMetrics}): a row whose bench reports them shows them.
     */
    static final List<String> WAIT_FIGURES = List.of("waitP99Us", "waitMaxUs");

    /** The read and write rates a cell shows below them, where the bench reports them apart. */
    static final List<String> RATE_FIGURES = List.of("readsPerSec", "writesPerSec");

    /**
     * One case.
     *
     * @param label the bench's name and the parameters that tell its cases apart
     * @param unit what the throughput counts
     * @param cells by lock
     * @param top the lock type at the top, or null when no lock type ran
     * @param tied the lock types not measurably slower than {@code top}
     * @param bound the serial floor's bound over the first reference, or {@link Spread#NONE} without a floor
     */
    record Row(String label, String unit, Map<String, Cell> cells, String top, List<String> tied, Spread bound) {}

    private RegimeMatrix() {}

    /**
     * The rows of {@code samples}, a case each in the order first run: the locks' ratios from the lock
     * runs, the bound from the floor runs ({@code carriers}: how many carriers share the work out).
     */
    static List<Row> of(List<Sample> samples, int carriers) {
        Map<String, List<Sample>> byCase = new LinkedHashMap<>();
        Map<String, List<Sample>> everyRun = new LinkedHashMap<>();
        for (Sample s : samples) {
            String key = ComparisonFigures.caseKey(s.row());
            everyRun.computeIfAbsent(key, k -> new ArrayList<>()).add(s);
            if (s.kind() == Kind.LOCK) {
                byCase.computeIfAbsent(key, k -> new ArrayList<>()).add(s);
            }
        }
        Map<String, String> labels = labels(byCase);
        List<Row> rows = new ArrayList<>();
        byCase.forEach((key, group) -> {
            Spread bound = ComparisonFigures.of(everyRun.get(key), REFERENCES.getFirst(), carriers)
                    .getFirst()
                    .bound();
            rows.add(row(labels.get(key), group, bound));
        });
        return rows;
    }

    /**
     * Whether any cell has a ratio to a reference: false when neither of {@link #REFERENCES} ran (a
     * comparison of other locks, say against the fair lock), which leaves the matrix nothing to show.
     */
    static boolean hasRatios(List<Row> rows) {
        return rows.stream().flatMap(row -> row.cells().values().stream()).anyMatch(RegimeMatrix::hasRatio);
    }

    /** Whether {@code cell} has a ratio to the better reference to show (in the chart). */
    static boolean hasRatio(Cell cell) {
        return cell != null && cell.toBest().present() && cell.toBest().median() > 0;
    }

    /** Every lock of the rows, in the order first met. */
    static List<String> locks(List<Row> rows) {
        Set<String> locks = new LinkedHashSet<>();
        rows.forEach(r -> locks.addAll(r.cells().keySet()));
        return List.copyOf(locks);
    }

    private static Row row(String label, List<Sample> group, Spread bound) {
        Map<String, Map<Integer, Double>> byLock = new LinkedHashMap<>();
        for (Sample s : group) {
            byLock.computeIfAbsent(s.row().lock(), k -> new TreeMap<>())
                    .put(s.repeat(), s.row().throughput());
        }
        Map<Integer, Double> best = new TreeMap<>();
        for (String reference : REFERENCES) {
            byLock.getOrDefault(reference, Map.of()).forEach((repeat, t) -> best.merge(repeat, t, Math::max));
        }
        Map<String, Map<String, List<Double>>> waits = new LinkedHashMap<>();
        List<String> figures = new ArrayList<>(WAIT_FIGURES);
        figures.addAll(RATE_FIGURES);
        for (Sample s : group) {
            for (String figure : figures) {
                Double value = s.row().secondary().get(figure);
                if (value != null) {
                    waits.computeIfAbsent(s.row().lock(), k -> new LinkedHashMap<>())
                            .computeIfAbsent(figure, k -> new ArrayList<>())
                            .add(value);
                }
            }
        }
        Map<String, Cell> cells = new LinkedHashMap<>();
        byLock.forEach((lock, throughput) -> {
            Map<String, List<Double>> lockWaits = waits.getOrDefault(lock, Map.of());
            List<Spread> ratios = new ArrayList<>();
            List<Verdict> verdicts = new ArrayList<>();
            for (String reference : REFERENCES) {
                Spread ratio = ratio(throughput, byLock.getOrDefault(reference, Map.of()));
                ratios.add(ratio);
                verdicts.add(lock.equals(reference) ? Verdict.REFERENCE : Verdict.of(ratio));
            }
            cells.put(
                    lock,
                    new Cell(
                            lock,
                            Spread.ofDoubles(List.copyOf(throughput.values())),
                            List.copyOf(ratios),
                            List.copyOf(verdicts),
                            ratio(throughput, best),
                            Spread.ofDoubles(lockWaits.getOrDefault(WAIT_FIGURES.get(0), List.of())),
                            Spread.ofDoubles(lockWaits.getOrDefault(WAIT_FIGURES.get(1), List.of())),
                            Spread.ofDoubles(lockWaits.getOrDefault(RATE_FIGURES.get(0), List.of())),
                            Spread.ofDoubles(lockWaits.getOrDefault(RATE_FIGURES.get(1), List.of()))));
        });
        String top = null;
        double topScore = Double.NEGATIVE_INFINITY;
        for (Cell cell : cells.values()) {
            double score = cell.toBest().present()
                    ? cell.toBest().median()
                    : cell.throughput().median();
            if (isLockType(cell.lock()) && score > topScore) {
                top = cell.lock();
                topScore = score;
            }
        }
        List<String> tied = new ArrayList<>();
        if (top != null) {
            Map<Integer, Double> leader = byLock.get(top);
            for (Map.Entry<String, Map<Integer, Double>> other : byLock.entrySet()) {
                String lock = other.getKey();
                if (!lock.equals(top)
                        && isLockType(lock)
                        && Verdict.of(ratio(other.getValue(), leader)) != Verdict.SLOWER) {
                    tied.add(lock);
                }
            }
        }
        return new Row(label, group.getFirst().row().unit(), cells, top, List.copyOf(tied), bound);
    }

    /** Per repeat that has both, {@code throughput} over {@code reference}'s. */
    private static Spread ratio(Map<Integer, Double> throughput, Map<Integer, Double> reference) {
        List<Double> ratios = new ArrayList<>();
        throughput.forEach((repeat, t) -> {
            Double against = reference.get(repeat);
            if (against != null && against > 0) {
                ratios.add(t / against);
            }
        });
        return Spread.ofDoubles(ratios);
    }

    static boolean isLockType(String name) {
        return Arrays.stream(LockType.values()).anyMatch(t -> t.name().equals(name));
    }

    /** A label per case: the bench's name, and the parameters that differ between its cases. */
    private static Map<String, String> labels(Map<String, List<Sample>> byCase) {
        Map<String, Map<String, Set<String>>> valuesByBench = new LinkedHashMap<>();
        byCase.values().forEach(group -> {
            ResultRow row = group.getFirst().row();
            Map<String, Set<String>> values = valuesByBench.computeIfAbsent(row.bench(), b -> new TreeMap<>());
            ComparisonFigures.caseParams(row)
                    .forEach((k, v) -> values.computeIfAbsent(k, x -> new LinkedHashSet<>())
                            .add(v));
        });
        Map<String, String> labels = new LinkedHashMap<>();
        byCase.forEach((key, group) -> {
            ResultRow row = group.getFirst().row();
            Map<String, String> params = ComparisonFigures.caseParams(row);
            StringBuilder label = new StringBuilder(row.bench());
            valuesByBench.get(row.bench()).forEach((k, v) -> {
                if (v.size() > 1) {
                    label.append(' ').append(k).append('=').append(params.get(k));
                }
            });
            labels.put(key, label.toString());
        });
        return labels;
    }

    /** The table in Markdown: legend, header, a row per case. */
    static String markdown(List<Row> rows) {
        List<String> locks = locks(rows);
        StringBuilder md = new StringBuilder();
        md.append("Each cell: the lock's throughput over ")
                .append(REFERENCES.get(0))
                .append("'s (first line) and over ")
                .append(REFERENCES.get(1))
                .append("'s (second line) in the same repeat, median (min–max) over the repeats; ")
                .append("`+` faster and `−` slower in every repeat, `=` no measurable difference, `ref` the")
                .append(" reference itself. Top: the lock type with the highest median ratio to the better of")
                .append(" the two in each repeat, and beside it those that are not slower than it in every repeat;")
                .append(" the bounds (")
                .append(String.join(", ", bounds(locks)))
                .append(") are not candidates. Floor bound: the most any lock could gain over ")
                .append(REFERENCES.getFirst())
                .append(" here, from the serial floor (contention rows). Where the bench times each wait for the")
                .append(" lock (contention rows), a last line gives the waits' p99 in µs and their max in ms, each a")
                .append(" fork's, median (min–max) over the repeats.\n\n");
        md.append("| row | top | floor bound |");
        locks.forEach(l -> md.append(' ').append(l).append(" |"));
        md.append("\n|---|---|---:|").append("---:|".repeat(locks.size())).append('\n');
        for (Row row : rows) {
            md.append("| ")
                    .append(row.label())
                    .append(" | ")
                    .append(top(row))
                    .append(" | ")
                    .append(row.bound().present() ? row.bound().text("%.2f") : "–")
                    .append(" |");
            for (String lock : locks) {
                Cell cell = row.cells().get(lock);
                md.append(' ').append(cell == null ? "–" : cellText(cell)).append(" |");
            }
            md.append('\n');
        }
        return md.toString();
    }

    private static List<String> bounds(List<String> locks) {
        List<String> bounds = locks.stream().filter(l -> !isLockType(l)).toList();
        return bounds.isEmpty() ? List.of("none here") : bounds;
    }

    /** "A" or "A (no measurable difference: B, C)"; "–" when no lock type ran. */
    static String top(Row row) {
        if (row.top() == null) {
            return "–";
        }
        return row.tied().isEmpty()
                ? "**" + row.top() + "**"
                : "**" + row.top() + "** (no measurable difference: " + String.join(", ", row.tied()) + ")";
    }

    /**
     * Both ratios of a cell, one a line, the waits' p99 and max where the bench timed them, and the reads
     * and writes a second where the bench counts them apart.
     */
    static String cellText(Cell cell) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < REFERENCES.size(); i++) {
            Verdict verdict = cell.verdicts().get(i);
            lines.add(
                    verdict == Verdict.REFERENCE
                            ? "ref"
                            : (cell.ratios().get(i).text("%.2f") + " " + mark(verdict)).strip());
        }
        if (cell.waitP99Us().present() || cell.waitMaxUs().present()) {
            lines.add("wait p99 " + cell.waitP99Us().text("%.1f") + " µs, max "
                    + cell.waitMaxUs().times(1e-3).text("%.2f") + " ms");
        }
        if (cell.readsPerSec().present() || cell.writesPerSec().present()) {
            lines.add("reads/s " + cell.readsPerSec().times(1e-3).text("%.0f") + "k, writes/s "
                    + cell.writesPerSec().times(1e-3).text("%.0f") + "k");
        }
        return String.join("<br>", lines);
    }

    private static String mark(Verdict verdict) {
        return switch (verdict) {
            case FASTER -> "+";
            case SLOWER -> "−";
            case NO_MEASURABLE_DIFFERENCE -> "=";
            case NOT_MEASURED, REFERENCE -> "";
        };
    }
}
