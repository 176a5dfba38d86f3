package dev.wordstats.numa.os;

/** A libc call failed; the message names the call, the errno and its text. */
public final class NativeCallException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String call;
    private final int errno;

    NativeCallException(String call, int errno, String errorText) {
        super(call + " failed: errno " + errno + " (" + errorText + ")");
        this.call = call;
        this.errno = errno;
    }

    /** The call as made, e.g. {@code "sched_setaffinity(0, 128, {4096})"}. */
    public String call() {
        return call;
    }

    /** The C {@code errno} the call left, e.g. 22 for EINVAL. */
    public int errno() {
        return errno;
    }
}
