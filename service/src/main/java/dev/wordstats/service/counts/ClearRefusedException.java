package dev.wordstats.service.counts;

/**
 * The snapshot in the data directory could not be removed, so the counts were not cleared: a
 * clear that a restart would undo is refused rather than half done.
 */
public final class ClearRefusedException extends RuntimeException {

    ClearRefusedException(Throwable cause) {
        super(
                "the snapshot in the data directory could not be removed, so nothing was cleared (the service log"
                        + " says why); the request can be retried once the data directory is writable",
                cause);
    }
}
