package dev.wordstats.loadtests.compare;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * A parsed Prometheus text exposition (the {@code /actuator/prometheus} page): samples with their
 * labels, and the few aggregations the comparison needs (sums, a histogram quantile as Prometheus'
 * {@code histogram_quantile} computes it).
 */
final class PrometheusText {

    record Sample(String name, Map<String, String> labels, double value) {}

    private final List<Sample> samples;

    private PrometheusText(List<Sample> samples) {
        this.samples = samples;
    }

    static PrometheusText parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            samples.add(parseLine(line));
        }
        return new PrometheusText(samples);
    }

    private static Sample parseLine(String line) {
        int brace = line.indexOf('{');
        int space = line.indexOf(' ');
        Map<String, String> labels = new LinkedHashMap<>();
        String name;
        int rest;
        if (brace >= 0 && (space < 0 || brace < space)) {
            name = line.substring(0, brace);
            int i = brace + 1;
            while (line.charAt(i) != '}') {
                int eq = line.indexOf('=', i);
                String key = line.substring(i, eq).strip();
                StringBuilder value = new StringBuilder();
                int j = eq + 2; // past ="
                while (line.charAt(j) != '"') {
                    char c = line.charAt(j);
                    if (c == '\\') {
                        char next = line.charAt(++j);
                        value.append(next == 'n' ? '\n' : next);
                    } else {
                        value.append(c);
                    }
                    j++;
                }
                labels.put(key, value.toString());
                i = j + 1;
                if (line.charAt(i) == ',') {
                    i++;
                }
            }
            rest = i + 1;
        } else {
            name = line.substring(0, space);
            rest = space;
        }
        String[] tail = line.substring(rest).strip().split("\\s+");
        return new Sample(name, labels, parseValue(tail[0]));
    }

    private static double parseValue(String text) {
        return switch (text) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(text);
        };
    }

    /**
     * This page less an earlier one of the same process: counters, histogram buckets, counts and
     * sums become the increase between the two; gauges (and maxima) keep this page's value.
     */
    PrometheusText since(PrometheusText earlier) {
        Map<String, Double> before = new java.util.HashMap<>();
        earlier.samples.forEach(s -> before.put(s.name() + s.labels(), s.value()));
        List<Sample> delta = new ArrayList<>();
        for (Sample s : samples) {
            boolean cumulative = s.name().endsWith("_total")
                    || s.name().endsWith("_bucket")
                    || s.name().endsWith("_count")
                    || s.name().endsWith("_sum");
            double base = cumulative ? before.getOrDefault(s.name() + s.labels(), 0.0) : 0.0;
            delta.add(new Sample(s.name(), s.labels(), s.value() - base));
        }
        return new PrometheusText(delta);
    }

    static Predicate<Sample> label(String key, String value) {
        return sample -> value.equals(sample.labels().get(key));
    }

    boolean has(String name) {
        return samples.stream().anyMatch(sample -> sample.name().equals(name));
    }

    /** The sum of every sample of {@code name} that passes the filter; empty when there is none. */
    OptionalDouble sum(String name, Predicate<Sample> filter) {
        List<Sample> matching = samples.stream()
                .filter(s -> s.name().equals(name))
                .filter(filter)
                .toList();
        return matching.isEmpty()
                ? OptionalDouble.empty()
                : OptionalDouble.of(matching.stream().mapToDouble(Sample::value).sum());
    }

    /** The largest sample of {@code name} that passes the filter. */
    OptionalDouble max(String name, Predicate<Sample> filter) {
        return samples.stream()
                .filter(s -> s.name().equals(name))
                .filter(filter)
                .mapToDouble(Sample::value)
                .max();
    }

    /** The smallest finite bucket bound of the histogram {@code base}: its resolution floor. */
    OptionalDouble lowestBucketBound(String base, Predicate<Sample> filter) {
        return samples.stream()
                .filter(s -> s.name().equals(base + "_bucket"))
                .filter(filter)
                .mapToDouble(s -> parseValue(s.labels().get("le")))
                .filter(Double::isFinite)
                .min();
    }

    /**
     * The upper bound of the highest bucket of the histogram {@code base} that holds more than the one
     * below it, summed over the series that pass the filter: on a page less an earlier one
     * ({@link #since}), every value recorded between the two is at most this. Empty without buckets or
     * values; infinite when a value lies past the highest finite bound.
     */
    OptionalDouble highestOccupiedBucketBound(String base, Predicate<Sample> filter) {
        TreeMap<Double, Double> buckets = new TreeMap<>(Comparator.naturalOrder());
        samples.stream()
                .filter(s -> s.name().equals(base + "_bucket"))
                .filter(filter)
                .forEach(s -> buckets.merge(parseValue(s.labels().get("le")), s.value(), Double::sum));
        double below = 0;
        OptionalDouble highest = OptionalDouble.empty();
        for (Map.Entry<Double, Double> bucket : buckets.entrySet()) {
            if (bucket.getValue() > below) {
                highest = OptionalDouble.of(bucket.getKey());
            }
            below = bucket.getValue();
        }
        return highest;
    }

    /**
     * The q-quantile of the histogram {@code base} ({@code base_bucket} series, summed over the
     * series that pass the filter), interpolated linearly inside the bucket as Prometheus does.
     */
    OptionalDouble histogramQuantile(String base, double q, Predicate<Sample> filter) {
        TreeMap<Double, Double> buckets = new TreeMap<>(Comparator.naturalOrder());
        samples.stream()
                .filter(s -> s.name().equals(base + "_bucket"))
                .filter(filter)
                .forEach(s -> buckets.merge(parseValue(s.labels().get("le")), s.value(), Double::sum));
        if (buckets.isEmpty() || !buckets.containsKey(Double.POSITIVE_INFINITY)) {
            return OptionalDouble.empty();
        }
        double total = buckets.get(Double.POSITIVE_INFINITY);
        if (total == 0) {
            return OptionalDouble.empty();
        }
        double rank = q * total;
        double lowerBound = 0;
        double lowerCount = 0;
        for (Map.Entry<Double, Double> bucket : buckets.entrySet()) {
            if (bucket.getValue() >= rank) {
                if (bucket.getKey().isInfinite()) {
                    return OptionalDouble.of(lowerBound); // the highest finite bound, as Prometheus answers
                }
                double inBucket = bucket.getValue() - lowerCount;
                double fraction = inBucket == 0 ? 1 : (rank - lowerCount) / inBucket;
                return OptionalDouble.of(lowerBound + (bucket.getKey() - lowerBound) * fraction);
            }
            lowerBound = bucket.getKey();
            lowerCount = bucket.getValue();
        }
        return OptionalDouble.of(lowerBound);
    }
}
