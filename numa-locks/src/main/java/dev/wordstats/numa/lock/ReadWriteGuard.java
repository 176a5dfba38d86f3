package dev.wordstats.numa.lock;

import java.util.function.Supplier;

/**
 * The part every reader-writer type shares: reentrancy, the refusal of an upgrade and the reports to
 * two probes, one for read sections and one for write sections. A subclass says only how to take and
 * release each side. Only sections reported as outermost reach a probe.
 */
abstract class ReadWriteGuard implements Guard {

    /*
     * Reentrancy: writer is written (plain) by the write holder only, after it took the write side and
     * before it releases it; any caller reads it (plain) and can find its own thread there only if it
     * wrote it itself (program order), as AQS's exclusiveOwnerThread. Read depth is per thread, kept
     * in a ThreadLocal of this guard: a nested read section must not wait, since a type that prefers
     * writers would make it wait for a writer that waits for the outer read section.
     *
     * Probes: the write probe hears write sections in the order the write side serializes them, so it
     * may keep plain state (the LockProbe contract). The read probe hears read sections that overlap:
     * its acquired() may run on several threads at once, so it must be thread-safe for every call.
     */

    /** Taking and releasing one side of the lock; a token (a stamp, a node) goes from take to release. */
    abstract static class Side {
        private final LockProbe probe; // null without one; final
        private final boolean hearsFast; // final
        private final boolean timed; // final
        private final boolean releaseHeard; // final: the probe hears the release of a wait

        Side(LockProbe probe) {
            this.probe = LockProbe.orNull(probe);
            this.hearsFast = this.probe != null && this.probe.hearsFastPath();
            this.timed = this.probe != null && this.probe.timed();
            this.releaseHeard = this.probe != null && this.probe.hearsReleaseAfterWait();
        }

        /** Takes this side, waiting as long as it takes, not interruptibly; returns a non-zero token. */
        abstract long acquire();

        /** Takes this side if that needs no wait (as the lock's own first attempt would), else returns 0. */
        abstract long tryAcquire();

        /** Releases this side, taken with {@code token}. */
        abstract void release(long token);
    }

    private final Side readSide;
    private final Side writeSide;
    private final ThreadLocal<int[]> readDepth = ThreadLocal.withInitial(() -> new int[1]); // per thread

    private Thread writer; // plain, by the write holder only; read plain by every caller (see above)

    ReadWriteGuard(Side readSide, Side writeSide) {
        this.readSide = readSide;
        this.writeSide = writeSide;
    }

    @Override
    public final <T> T call(Supplier<T> criticalSection) {
        return write(criticalSection);
    }

    @Override
    public final <T> T write(Supplier<T> writeSection) {
        Thread me = Thread.currentThread();
        if (writer == me) {
            return writeSection.get();
        }
        if (readDepth.get()[0] > 0) {
            throw new IllegalStateException("a write section inside a read section of the same guard: no upgrade");
        }
        return section(writeSide, writeSection, me);
    }

    @Override
    public final <T> T read(Supplier<T> readSection) {
        Thread me = Thread.currentThread();
        int[] depth = readDepth.get();
        if (writer == me || depth[0] > 0) {
            depth[0]++;
            try {
                return readSection.get();
            } finally {
                depth[0]--;
            }
        }
        depth[0] = 1;
        try {
            return section(readSide, readSection, null);
        } finally {
            depth[0] = 0;
        }
    }

    private <T> T section(Side side, Supplier<T> body, Thread owner) {
        LockProbe probe = side.probe;
        long token;
        boolean waited = false;
        boolean report = false;
        long asked = 0L;
        long began = 0L;
        if (probe == null) {
            token = side.acquire();
        } else {
            asked = side.timed ? System.nanoTime() : 0L;
            token = side.tryAcquire();
            if (token != 0L) {
                report = side.hearsFast;
                began = side.timed ? System.nanoTime() : 0L;
            } else {
                waited = true;
                report = probe.wantsWaitNow() | side.hearsFast | side.timed; // asked at every wait: may begin it
                if (report && asked == 0L) {
                    asked = System.nanoTime();
                }
                token = side.acquire();
                began = report ? System.nanoTime() : 0L;
            }
        }
        if (owner != null) {
            writer = owner;
        }
        long ended = 0L;
        try {
            if (report) {
                probe.acquired(waited, began - asked);
            }
            return body.get();
        } finally {
            if (side.timed) {
                ended = System.nanoTime();
            }
            if (owner != null) {
                writer = null;
            }
            side.release(token);
            if (report && (side.timed || waited && side.releaseHeard)) {
                probe.released(waited, began - asked, (side.timed ? ended : System.nanoTime()) - began);
            }
        }
    }
}
