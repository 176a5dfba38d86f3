package dev.wordstats.comparison;

import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.OptionalDouble;
import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/**
 * The spread of one figure over the repeats of a comparison: median, minimum, maximum and how many
 * repeats had the figure. Repeats without it (a run that failed to report it) are left out, never
 * counted as zero.
 *
 * @param median the middle value (the mean of the two middle ones for an even count)
 * @param min the smallest value
 * @param max the largest value
 * @param count how many values
 */
public record Spread(double median, double min, double max, int count) {

    public static final Spread NONE = new Spread(Double.NaN, Double.NaN, Double.NaN, 0);

    /** The spread of the present, finite values; {@link #NONE} when there is none. */
    public static Spread of(Collection<OptionalDouble> values) {
        double[] v = values.stream()
                .filter(OptionalDouble::isPresent)
                .mapToDouble(OptionalDouble::getAsDouble)
                .filter(Double::isFinite)
                .toArray();
        if (v.length == 0) {
            return NONE;
        }
        // Commons Math's default estimate: the middle value, or the mean of the two middle ones
        return new Spread(new Median().evaluate(v), StatUtils.min(v), StatUtils.max(v), v.length);
    }

    /** The spread of {@code values}, leaving out null, NaN and infinite ones (a figure a run did not measure). */
    public static Spread ofDoubles(Collection<Double> values) {
        return of(values.stream()
                .map(v -> v == null ? OptionalDouble.empty() : OptionalDouble.of(v))
                .toList());
    }

    public static Spread ofValues(double... values) {
        return of(Arrays.stream(values).mapToObj(OptionalDouble::of).toList());
    }

    public boolean present() {
        return count > 0;
    }

    /** Whether the two [min, max] ranges share at least one point. */
    public boolean overlaps(Spread other) {
        return min <= other.max && other.min <= max;
    }

    /** "12.3 (11.0–13.9)" with the given format for each number; "n/a" without values. */
    public String text(String format) {
        if (!present()) {
            return "n/a";
        }
        String median = String.format(Locale.ROOT, format, this.median);
        if (count == 1) {
            return median;
        }
        return median + " (" + String.format(Locale.ROOT, format, min) + "–" + String.format(Locale.ROOT, format, max)
                + ")";
    }

    /** The spread with every value multiplied by {@code factor} (unit changes). */
    public Spread times(double factor) {
        return present() ? new Spread(median * factor, min * factor, max * factor, count) : this;
    }
}
