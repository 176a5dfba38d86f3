package dev.wordstats.service;

import org.jspecify.annotations.Nullable;

/**
 * A check made at start-up failed (an unknown {@code wordstats.*} property, a data directory that
 * cannot be written, a snapshot that cannot be restored): the service stops, and
 * {@link StartupCheckFailureAnalyzer} prints {@link #getMessage()} and {@link #action()} in Spring
 * Boot's "APPLICATION FAILED TO START" report.
 */
public class StartupCheckException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String action;

    /**
     * @param description what is wrong, naming the property or file
     * @param action what to do about it
     */
    public StartupCheckException(String description, String action, @Nullable Throwable cause) {
        super(description, cause);
        this.action = action;
    }

    public StartupCheckException(String description, String action) {
        this(description, action, null);
    }

    /** What to do about it. */
    public String action() {
        return action;
    }
}
