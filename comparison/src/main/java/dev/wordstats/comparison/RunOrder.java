package dev.wordstats.comparison;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The order of the lock types in each repeat: repeat r plays the list rotated left by r, so over as
 * many repeats as there are locks each lock runs once in every position (first on a fresh machine,
 * last after the others warmed it), and a drift over the whole comparison (another job starting,
 * the machine heating up) falls on every lock alike instead of on the last one.
 */
public final class RunOrder {

    private RunOrder() {}

    /** The locks of repeat {@code repeat} (0-based): the list rotated left by {@code repeat}. */
    public static List<String> of(List<String> locks, int repeat) {
        if (repeat < 0) {
            throw new IllegalArgumentException("repeat must not be negative, was " + repeat);
        }
        List<String> order = new ArrayList<>(locks);
        if (!order.isEmpty()) {
            Collections.rotate(order, -(repeat % order.size()));
        }
        return List.copyOf(order);
    }
}
