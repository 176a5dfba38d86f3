package dev.wordstats.numa.scheduler;

import java.util.Locale;

/** Which scheduler runs the virtual threads of a {@link NodeSchedulers}. */
public enum SchedulerMode {
    /** The JDK's default scheduler: one pool of carriers for all nodes; a thread may change node at every unpark. */
    DEFAULT("default"),
    /** One scheduler per node, its carriers pinned to the node's CPUs: a thread stays on the node it started on. */
    PER_NODE("per-node");

    private final String label;

    SchedulerMode(String label) {
        this.label = label;
    }

    /** The configuration spelling: {@code default} or {@code per-node}. */
    public String label() {
        return label;
    }

    /**
     * The mode named {@code text}: {@code default} or {@code per-node}, any case, {@code _} for {@code -}.
     *
     * @throws IllegalArgumentException for any other text, naming the two allowed values
     */
    public static SchedulerMode parse(String text) {
        String normalized =
                text == null ? "" : text.strip().toLowerCase(Locale.ROOT).replace('_', '-');
        for (SchedulerMode mode : values()) {
            if (mode.label.equals(normalized)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("scheduler must be 'default' or 'per-node', was '" + text + "'");
    }

    @Override
    public String toString() {
        return label;
    }
}
