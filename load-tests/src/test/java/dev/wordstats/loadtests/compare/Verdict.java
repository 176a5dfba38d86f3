package dev.wordstats.loadtests.compare;

import dev.wordstats.comparison.Spread;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the repeats of a comparison allow one to say about one figure: lock A is better than lock B
 * only when A's [min, max] range over the repeats does not overlap B's. Everything else is "no
 * measurable difference". With one repeat there is no spread, hence no verdict at all.
 *
 * <p>{@link #tiers()} orders the locks by median, best first, and groups each with the ones whose
 * ranges it overlaps (a chain of overlaps is one tier, so a tier can hold two locks that differ
 * measurably only through a middle one: {@link #separated()} lists every measurable pair).
 *
 * @param figure the figure's name, e.g. "requests/s"
 * @param higherIsBetter true for throughput, false for latencies
 * @param repeats how many repeats the spreads come from (the fewest over the locks)
 * @param tiers the locks, best tier first; locks within a tier are ordered by median
 * @param separated every pair "A better than B" whose ranges do not overlap, best first
 * @param leftOut locks with the figure from fewer than two runs (failed runs are not counted): no
 *     range, so no verdict about them
 */
record Verdict(
        String figure,
        boolean higherIsBetter,
        int repeats,
        List<List<String>> tiers,
        List<String> separated,
        List<String> leftOut) {

    static final String NO_DIFFERENCE = "no measurable difference";

    static Verdict of(String figure, boolean higherIsBetter, Map<String, Spread> byLock) {
        int most = byLock.values().stream().mapToInt(Spread::count).max().orElse(0);
        Map<String, Spread> present = new LinkedHashMap<>();
        List<String> leftOut = new ArrayList<>();
        byLock.forEach((lock, spread) -> {
            if (spread.count() >= Math.min(2, most) && spread.present()) {
                present.put(lock, spread);
            } else if (spread.present()) {
                leftOut.add(lock);
            }
        });
        int repeats = present.values().stream().mapToInt(Spread::count).min().orElse(0);
        Comparator<Map.Entry<String, Spread>> byMedian =
                Comparator.comparingDouble(e -> e.getValue().median());
        List<Map.Entry<String, Spread>> sorted = new ArrayList<>(present.entrySet());
        sorted.sort(higherIsBetter ? byMedian.reversed() : byMedian);

        List<List<String>> tiers = new ArrayList<>();
        List<Spread> tierSpreads = new ArrayList<>();
        for (Map.Entry<String, Spread> e : sorted) {
            boolean joins = tierSpreads.stream().anyMatch(s -> s.overlaps(e.getValue()));
            if (tiers.isEmpty() || !joins) {
                tiers.add(new ArrayList<>());
                tierSpreads.clear();
            }
            tiers.getLast().add(e.getKey());
            tierSpreads.add(e.getValue());
        }
        List<String> separated = new ArrayList<>();
        for (int i = 0; i < sorted.size(); i++) {
            for (int j = i + 1; j < sorted.size(); j++) {
                if (!sorted.get(i).getValue().overlaps(sorted.get(j).getValue())) {
                    separated.add(sorted.get(i).getKey() + " > " + sorted.get(j).getKey());
                }
            }
        }
        return new Verdict(
                figure,
                higherIsBetter,
                repeats,
                tiers.stream().map(List::copyOf).toList(),
                List.copyOf(separated),
                List.copyOf(leftOut));
    }

    /** True when the repeats allow a verdict at all: at least two of them, and two or more locks. */
    boolean decidable() {
        return repeats >= 2 && tiers.stream().mapToInt(List::size).sum() >= 2;
    }

    /** True when at least one pair of locks differs measurably. */
    boolean differs() {
        return decidable() && !separated.isEmpty();
    }

    /**
     * One line for the report, e.g. "NUMA_MCS > FAIR_REENTRANT ≈ UNFAIR_REENTRANT" (">" between
     * tiers, "≈" within one), or {@value #NO_DIFFERENCE}.
     */
    String text() {
        if (repeats < 2) {
            return "no verdict: one run per lock has no spread (use -Drepeats=3 or more)";
        }
        String note =
                leftOut.isEmpty() ? "" : " (left out, fewer than 2 passing runs: " + String.join(", ", leftOut) + ")";
        if (!decidable()) {
            return "no verdict: fewer than two locks with two or more passing runs" + note;
        }
        if (!differs()) {
            return NO_DIFFERENCE + note;
        }
        StringBuilder line = new StringBuilder();
        for (List<String> tier : tiers) {
            if (!line.isEmpty()) {
                line.append(" > ");
            }
            line.append(String.join(" ≈ ", tier));
        }
        if (tiers.size() == 1) { // only a chain of overlaps hides the measurable pairs
            line.append(" (overlapping chain; measurable: ")
                    .append(String.join(", ", separated))
                    .append(')');
        }
        return line + note;
    }

    /**
     * The ranking as a comparable key: the tiers when the figure differs measurably, else
     * {@value #NO_DIFFERENCE}. Two comparisons agree when their keys are equal.
     */
    String rankingKey() {
        if (!decidable()) {
            return "no verdict";
        }
        return differs() ? tiers.toString() : NO_DIFFERENCE;
    }
}
