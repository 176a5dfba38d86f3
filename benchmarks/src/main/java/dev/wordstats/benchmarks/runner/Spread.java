package dev.wordstats.benchmarks.runner;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * A figure over the repeats of an interleaved comparison: its median and its range. NaN values (a
 * figure a run did not measure) are left out; with none left, every field is NaN and count is 0.
 *
 * @param median the median (the mean of the middle two for an even count)
 * @param min the smallest value
 * @param max the largest value
 * @param count how many values there were
 */
record Spread(double median, double min, double max, int count) {

    static final Spread NONE = new Spread(Double.NaN, Double.NaN, Double.NaN, 0);

    static Spread of(List<Double> values) {
        List<Double> sorted = new ArrayList<>();
        for (Double value : values) {
            if (value != null && !value.isNaN()) {
                sorted.add(value);
            }
        }
        if (sorted.isEmpty()) {
            return NONE;
        }
        Collections.sort(sorted);
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new Spread(median, sorted.getFirst(), sorted.getLast(), n);
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** {@code median (min–max)} with {@code decimals} decimals, or {@code –} when empty. */
    String format(int decimals) {
        if (isEmpty()) {
            return "–";
        }
        String f = "%." + decimals + "f";
        return String.format(Locale.ROOT, f + " (" + f + "–" + f + ")", median, min, max);
    }

    /**
     * How a lock compares with the reference, from its throughput ratios to it (> 1: faster): a
     * difference only where every repeat agrees on its side of 1.0, else no measurable difference.
     */
    enum Verdict {
        REFERENCE("reference"),
        FASTER("faster"),
        SLOWER("slower"),
        NO_MEASURABLE_DIFFERENCE("no measurable difference"),
        NOT_MEASURED("not measured");

        private final String text;

        Verdict(String text) {
            this.text = text;
        }

        static Verdict of(Spread ratio) {
            if (ratio.isEmpty()) {
                return NOT_MEASURED;
            }
            if (ratio.min() > 1.0) {
                return FASTER;
            }
            if (ratio.max() < 1.0) {
                return SLOWER;
            }
            return NO_MEASURABLE_DIFFERENCE;
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
