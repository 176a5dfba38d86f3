package dev.wordstats.numa.lock;

import java.util.Locale;
import java.util.Set;
import jdk.jfr.SettingControl;

/**
 * The {@code waitThreshold} setting of {@link LockWaitEvent}: a time span written as JFR writes a
 * {@code threshold} ({@code "20 ms"}, {@code "10 us"}, {@code "0 ns"}), default 20 ms as for the JDK's
 * lock events. With several recordings the smallest wins, so each gets at least what it asked for.
 * JFR creates one instance per event type and calls {@link #setValue} when a recording starts or stops;
 * the committing threads read {@link #nanos()}.
 */
final class WaitThresholdSetting extends SettingControl {

    static final String DEFAULT = "20 ms";

    private volatile String value = DEFAULT; // written by JFR on a settings change, read by getValue
    private volatile long nanos = parse(DEFAULT); // written with value, read by each committing thread

    /** For JFR, which creates one when it registers the event. */
    WaitThresholdSetting() {}

    @Override
    public String combine(Set<String> values) {
        String smallest = null;
        long smallestNanos = Long.MAX_VALUE;
        for (String candidate : values) {
            long candidateNanos = parse(candidate);
            if (candidateNanos >= 0 && candidateNanos < smallestNanos) {
                smallest = candidate;
                smallestNanos = candidateNanos;
            }
        }
        return smallest != null ? smallest : DEFAULT;
    }

    @Override
    public void setValue(String settingValue) {
        long parsed = parse(settingValue);
        if (parsed >= 0) {
            nanos = parsed;
            value = settingValue;
        }
    }

    @Override
    public String getValue() {
        return value;
    }

    long nanos() {
        return nanos;
    }

    /** Nanoseconds of a JFR time span ({@code "<number> <unit>"}, unit ns, us, ms, s, m, h or d), -1 if malformed. */
    static long parse(String span) {
        String text = span.trim().toLowerCase(Locale.ROOT);
        if (text.equals("0")) {
            return 0;
        }
        int split = 0;
        while (split < text.length() && Character.isDigit(text.charAt(split))) {
            split++;
        }
        if (split == 0 || split > 18) {
            return -1;
        }
        long amount = Long.parseLong(text.substring(0, split));
        long unit = switch (text.substring(split).trim()) {
            case "ns" -> 1L;
            case "us" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            case "d" -> 86_400_000_000_000L;
            default -> -1L;
        };
        if (unit < 0) {
            return -1;
        }
        return amount > Long.MAX_VALUE / unit ? Long.MAX_VALUE : amount * unit;
    }
}
