package dev.wordstats.service.counts;

import java.nio.file.Path;

/** A snapshot file that cannot be restored: the message names the file and what is wrong with it. */
public final class BadSnapshotException extends java.io.IOException {

    private static final long serialVersionUID = 1L;

    private final transient Path file;

    BadSnapshotException(Path file, String what) {
        super("the snapshot " + file.toAbsolutePath() + " " + what);
        this.file = file;
    }

    /** The file that was refused. */
    public Path file() {
        return file;
    }
}
