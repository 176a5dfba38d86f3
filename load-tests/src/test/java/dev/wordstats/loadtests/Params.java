package dev.wordstats.loadtests;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Run parameters from system properties ({@code -Dusers=200}), each with a default; every value
 * read is remembered so a run can print exactly what it used.
 */
final class Params {

    private final Map<String, Object> used = new LinkedHashMap<>();

    String string(String name, String defaultValue) {
        return remember(name, System.getProperty(name, defaultValue));
    }

    int positiveInt(String name, int defaultValue) {
        int value = parse(name, defaultValue, Integer::valueOf);
        if (value < 1) {
            throw new IllegalArgumentException("-D" + name + " must be at least 1, was " + value);
        }
        return remember(name, value);
    }

    long longValue(String name, long defaultValue) {
        return remember(name, parse(name, defaultValue, Long::valueOf));
    }

    double nonNegative(String name, double defaultValue) {
        double value = parse(name, defaultValue, Double::valueOf);
        if (!(value >= 0)) {
            throw new IllegalArgumentException("-D" + name + " must be >= 0, was " + value);
        }
        return remember(name, value);
    }

    /** Everything read so far, in reading order, as {@code name=value} pairs. */
    String summary() {
        StringBuilder text = new StringBuilder();
        used.forEach((name, value) ->
                text.append(text.isEmpty() ? "" : " ").append(name).append('=').append(value));
        return text.toString();
    }

    private <T> T parse(String name, T defaultValue, Function<String, T> parser) {
        String raw = System.getProperty(name);
        if (raw == null || raw.isBlank()) {
            return defaultValue;
        }
        try {
            return parser.apply(raw.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + name + "=" + raw + " is not a number", e);
        }
    }

    private <T> T remember(String name, T value) {
        used.put(name, value);
        return value;
    }
}
