package dev.wordstats.loadtests.compare;

import dev.wordstats.comparison.SignTest;
import dev.wordstats.comparison.Spread;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * One lock against the reference lock (the first one named), repeat by repeat: the lock's figure over
 * the reference's in the same repeat. The repeats run the locks back to back, so a slow spell of a shared
 * host falls on both sides of a pair alike, where it widens both min–max ranges of the summary and hides
 * a steady difference in them.
 *
 * <p>A difference is named only when a two-sided sign test ({@link SignTest}) over the repeats gives p &lt;
 * {@value #ALPHA}: the ratios on one side of 1 count, the ratios of exactly 1 are left out. That takes at least
 * 6 repeats (all 6 on one side: p = 0.031; 5 of 5 give 0.0625).
 *
 * @param lock the lock type
 * @param reference the lock type it is divided by
 * @param ratios per repeat in which both runs passed and reported the figure, in repeat order
 */
record PairedRatio(String lock, String reference, List<Double> ratios) {

    static final double ALPHA = 0.05;

    PairedRatio {
        ratios = List.copyOf(ratios);
    }

    /** The ratio of {@code lock}'s figure to {@code reference}'s, for each repeat where both have it. */
    static PairedRatio of(
            String lock, String reference, List<RunRecord> runs, Function<RunRecord, OptionalDouble> figure) {
        Map<Integer, Double> mine = byRepeat(lock, runs, figure);
        Map<Integer, Double> theirs = byRepeat(reference, runs, figure);
        List<Double> ratios = new ArrayList<>();
        mine.forEach((repeat, value) -> {
            Double base = theirs.get(repeat);
            if (base != null && base != 0) {
                ratios.add(value / base);
            }
        });
        return new PairedRatio(lock, reference, ratios);
    }

    private static Map<Integer, Double> byRepeat(
            String lock, List<RunRecord> runs, Function<RunRecord, OptionalDouble> figure) {
        Map<Integer, Double> out = new TreeMap<>();
        for (RunRecord r : runs) {
            OptionalDouble v = r.lock().equals(lock) && r.passed() ? figure.apply(r) : OptionalDouble.empty();
            if (v.isPresent() && Double.isFinite(v.getAsDouble())) {
                out.put(r.repeat(), v.getAsDouble());
            }
        }
        return out;
    }

    int above() {
        return signTest().above();
    }

    int below() {
        return signTest().below();
    }

    /** The two-sided exact sign test's p over the ratios not equal to 1; 1 when there are none. */
    double signTestP() {
        return signTest().p();
    }

    private SignTest signTest() {
        return SignTest.of(ratios);
    }

    /** Above or below the reference by the sign test, or {@link Verdict#NO_DIFFERENCE}. */
    String verdict(boolean higherIsBetter) {
        if (ratios.isEmpty() || signTestP() >= ALPHA) {
            return Verdict.NO_DIFFERENCE;
        }
        boolean higher = above() > below();
        return (higher == higherIsBetter ? "better" : "worse") + " than " + reference;
    }

    /** "median (min–max)" of the ratios, "n/a" without any. */
    String spreadText() {
        return Spread.ofDoubles(ratios).text("%.2f");
    }
}
