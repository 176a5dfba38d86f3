package dev.wordstats.service.counts;

import dev.wordstats.service.StartupCheckException;
import dev.wordstats.service.WordstatsProperties;
import dev.wordstats.service.WordstatsProperties.BadSnapshotPolicy;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Keeps the {@link WordStore} in {@code wordstats.store.data-dir}, as one snapshot file
 * ({@value #FILE_NAME}, format in {@link SnapshotFile}):
 * <ul>
 *   <li>restored when this bean is built, before the web server opens its port, whatever the lock
 *       type (the file holds words and counts, nothing of the lock); a file that cannot be restored
 *       stops the start, or with {@code on-bad-snapshot=start-empty} is moved aside and logged; a
 *       good file over a lowered distinct-word cap is restored whole and reported
 *       ({@link #restoredOverCap()}, a warning in the log);</li>
 *   <li>written every {@code wordstats.store.snapshot-every} when words were counted since the
 *       last write, and once more when the application stops: this bean's
 *       lifecycle phase is below the web server's, so it stops after the graceful shutdown has let
 *       the requests in flight finish and the port is closed;</li>
 *   <li>removed with the counts by {@link #clear()} ({@code DELETE /api/words}): the file first,
 *       then the counts, so a clear is on the disk or refused ({@link ClearRefusedException}, the
 *       counts unchanged), never undone by a restart.</li>
 * </ul>
 * The data directory is this instance's alone: the constructor takes an exclusive lock on
 * {@value #LOCK_FILE_NAME} there ({@link FileChannel#tryLock()}, released by {@link #close()} or by the
 * process's exit, even {@code kill -9}), and a second instance on the same directory stops its start
 * naming the directory. Each write goes to a temporary file of its own, removed when the write fails.
 * The writes that failed in a row, the last error and the last good write are kept for the
 * {@code snapshots} health indicator ({@link SnapshotsHealthIndicator}).
 *
 * <p>Each stripe is copied under its guard ({@link WordStore#copyStripe}) and written with no lock
 * held; the stripes are copied one after another, so a snapshot taken under load is exact per
 * stripe and never holds a count above what was counted. What a crash can lose: the words counted
 * after the last completed write began, so at most {@code snapshot-every} plus one write's duration.
 * Writes and {@link #clear()} take one lock between them (never held by a request that counts),
 * so a write cannot put back counts that a clear removed.
 *
 * <p>Where each promise is checked: an exact restore under every lock type,
 * {@code StoreSnapshotsTest.restartWithAnotherLockTypeKeepsEveryCountExactly} and
 * {@code RestartKeepsCountsTest}; no count above what was sent under concurrent load,
 * {@code StoreSnapshotsTest.snapshotsUnderConcurrentLoadNeverHoldACountAboveWhatWasSent}; at most
 * the last interval lost to {@code kill -9}, {@code CrashRecoveryTest}; bad files and an unwritable
 * directory, {@code StoreSnapshotsTest} and {@code RestartKeepsCountsTest}; a clear that stays
 * cleared, {@code StoreSnapshotsTest.clearedCountsStayClearedAfterARestart}; a clear refused when the
 * file cannot be removed, {@code StoreSnapshotsTest.aClearThatCannotRemoveTheFileChangesNothing} and
 * {@code DurableClearTest}.
 */
@Component
public class StoreSnapshots implements SmartLifecycle, AutoCloseable {

    /** The snapshot's file name in the data directory. */
    public static final String FILE_NAME = "wordstats.snapshot";

    /** The file in the data directory whose lock marks the directory as in use by one instance. */
    public static final String LOCK_FILE_NAME = "wordstats.lock";

    private static final Logger log = LoggerFactory.getLogger(StoreSnapshots.class);
    private static final DateTimeFormatter ASIDE_STAMP =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

    private final WordStore store;
    private final Path file;
    private final Duration every;
    private final Clock clock;
    private final ReentrantLock writing = new ReentrantLock(); // held by a write or a clear, never by a request
    private volatile ScheduledExecutorService timer; // set by start, cleared by stop (lifecycle thread)

    // Written under `writing`, read by the metrics at any time.
    private long writtenAtWordsCounted; // store.wordsCounted() read before the last write (or at restore)
    private boolean writeDue; // the file may not hold the counts (a refused clear): the next write is due
    private volatile long lastWriteEpochMillis = -1; // the end of the last write, or the restored file's mtime
    private volatile long lastWriteNanos; // the duration of the last write
    private volatile long lastWriteBytes; // the size of the last written (or restored) file
    private volatile long lastWriteWords; // the distinct words in it
    private volatile long writeFailures; // writes that failed since start-up
    private volatile long restoredOverCap; // set by restore: the distinct words of a file over the cap, else 0
    private volatile int failuresInARow; // writes that failed since the last good one
    private volatile @Nullable String lastFailure; // the error of the last failed write, null before any
    private volatile long lastGoodWriteEpochMillis = -1; // the end of this process's last good write
    private final FileChannel lockChannel; // holds the data directory's lock until close

    @Autowired
    public StoreSnapshots(WordStore store, WordstatsProperties properties) {
        this(store, properties, Clock.systemUTC());
    }

    StoreSnapshots(WordStore store, WordstatsProperties properties, Clock clock) {
        this.store = store;
        this.every = properties.store().snapshotEvery();
        this.clock = clock;
        Path dir = properties.store().dataDir().toAbsolutePath().normalize();
        this.file = dir.resolve(FILE_NAME);
        checkWritable(dir);
        this.lockChannel = lockDirectory(dir);
        try {
            restore(properties.store().onBadSnapshot(), properties.limits().maxDistinctWords());
        } catch (RuntimeException | Error e) {
            releaseLock();
            throw e;
        }
    }

    /** The snapshot file. */
    public Path file() {
        return file;
    }

    /**
     * Writes a snapshot if words were counted since the last one (or a refused clear may have
     * removed the file).
     *
     * @return whether one was written
     * @throws IOException the write failed (the previous snapshot, if any, is untouched)
     */
    public boolean writeIfChanged() throws IOException {
        writing.lock();
        try {
            long counted = store.wordsCounted(); // read before copying: a later word makes the next write due
            if (counted == writtenAtWordsCounted && !writeDue) {
                return false;
            }
            long start = System.nanoTime();
            SnapshotFile.Written written;
            try {
                written = SnapshotFile.write(file, store.stripes(), store::copyStripe);
            } catch (IOException | RuntimeException e) {
                writeFailures++;
                failuresInARow++;
                lastFailure = e.toString();
                throw e;
            }
            lastWriteNanos = System.nanoTime() - start;
            lastWriteEpochMillis = clock.millis();
            lastGoodWriteEpochMillis = lastWriteEpochMillis;
            failuresInARow = 0;
            lastWriteBytes = written.bytes();
            lastWriteWords = written.words();
            writtenAtWordsCounted = counted;
            writeDue = false;
            return true;
        } finally {
            writing.unlock();
        }
    }

    /**
     * Removes the snapshot, then clears the counts, so a restart finds none of them; a snapshot
     * that cannot be removed leaves the counts as they were.
     *
     * <p>Words counted while the stripes are cleared are kept or cleared stripe by stripe, and
     * either way the next write is due for them: the words counted are read before the clear, so
     * any counted later differ from the mark, and any counted before it were already in the stripes
     * the clear then empties.
     *
     * @throws ClearRefusedException the snapshot could not be removed: nothing was cleared
     */
    public void clear() {
        writing.lock();
        try {
            try {
                if (Files.deleteIfExists(file)) {
                    SnapshotFile.forceDirectory(file.getParent());
                }
            } catch (IOException | RuntimeException e) {
                // The file may be gone without its removal on the disk: the next write puts it back.
                writeDue = true;
                log.warn("Could not remove the snapshot {}, so the counts were not cleared: {}", file, e.toString());
                throw new ClearRefusedException(e);
            }
            long counted = store.wordsCounted(); // read before the clear, see above
            store.clear();
            writtenAtWordsCounted = counted;
            writeDue = false;
            lastWriteEpochMillis = -1;
            lastWriteBytes = 0;
            lastWriteWords = 0;
        } finally {
            writing.unlock();
        }
    }

    /** Seconds since the snapshot on disk was written, NaN when there is none. */
    public double ageSeconds() {
        long at = lastWriteEpochMillis;
        return at < 0 ? Double.NaN : Math.max(0, clock.millis() - at) / 1000.0;
    }

    /** The duration of the last write, in seconds (0 before the first). */
    public double lastWriteSeconds() {
        return lastWriteNanos / 1e9;
    }

    /** The size of the snapshot on disk in bytes (0 when there is none). */
    public long sizeBytes() {
        return lastWriteBytes;
    }

    /** The distinct words in the snapshot on disk. */
    public long words() {
        return lastWriteWords;
    }

    /**
     * The distinct words of the restored snapshot when they were more than
     * {@code wordstats.limits.max-distinct-words} (a cap lowered since the file was written), else 0.
     * Such a file is restored whole, never refused.
     */
    public long restoredOverCap() {
        return restoredOverCap;
    }

    /** Writes that failed since start-up. */
    public long writeFailures() {
        return writeFailures;
    }

    /** Writes that failed since the last good one (0 once a write succeeds). */
    public int failuresInARow() {
        return failuresInARow;
    }

    /** The error of the last failed write, or null when none failed since start-up. */
    public @Nullable String lastFailure() {
        return lastFailure;
    }

    /** When this process last wrote a snapshot, or null when it has not yet. */
    public @Nullable Instant lastGoodWrite() {
        long at = lastGoodWriteEpochMillis;
        return at < 0 ? null : Instant.ofEpochMilli(at);
    }

    @Override
    public void start() {
        ScheduledExecutorService t = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("wordstats-snapshot").daemon().factory());
        long millis = every.toMillis();
        t.scheduleWithFixedDelay(this::periodicWrite, millis, millis, TimeUnit.MILLISECONDS);
        timer = t;
    }

    @Override
    public void stop() {
        ScheduledExecutorService t = timer;
        timer = null;
        if (t != null) {
            t.shutdownNow();
            try {
                t.awaitTermination(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            if (writeIfChanged()) {
                log.info("Counts written to {} on shutdown ({} words, {} bytes)", file, lastWriteWords, lastWriteBytes);
            }
        } catch (IOException | RuntimeException e) {
            log.error("Could not write the counts to {} on shutdown: the last snapshot stays", file, e);
        }
    }

    /** Releases the data directory's lock (the application context calls it when it closes). */
    @Override
    public void close() {
        releaseLock();
    }

    @Override
    public boolean isRunning() {
        return timer != null;
    }

    /** Below the web server's phases: started before the port opens, stopped after it closed. */
    @Override
    public int getPhase() {
        return WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE - 2048;
    }

    private void periodicWrite() {
        try {
            writeIfChanged();
        } catch (IOException | RuntimeException e) {
            log.warn("Could not write the counts to {} (will retry in {}): {}", file, every, e.toString());
        }
    }

    private static void checkWritable(Path dir) {
        try {
            Files.createDirectories(dir);
            Path probe = Files.createTempFile(dir, ".write-check", ".tmp");
            Files.delete(probe);
        } catch (IOException | RuntimeException e) {
            throw new StartupCheckException(
                    "wordstats.store.data-dir " + dir + " is not a writable directory (" + e + ")",
                    "Point wordstats.store.data-dir at a directory this process can create and write.",
                    e);
        }
    }

    /** Takes the exclusive lock of the data directory, or stops the start when another process holds it. */
    private static FileChannel lockDirectory(Path dir) {
        Path lockFile = dir.resolve(LOCK_FILE_NAME);
        FileChannel channel;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException | RuntimeException e) {
            throw new StartupCheckException(
                    "Cannot open the lock file " + lockFile + " (" + e + ").",
                    "Check the permissions of wordstats.store.data-dir.",
                    e);
        }
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // held by another instance in this JVM
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            throw new StartupCheckException(
                    "Cannot lock " + lockFile + " (" + e + ").",
                    "Put wordstats.store.data-dir on a file system that supports file locks.",
                    e);
        }
        if (lock == null) {
            closeQuietly(channel);
            throw new StartupCheckException(
                    "wordstats.store.data-dir " + dir
                            + " is in use by another wordstats instance (it holds the lock on " + lockFile + ").",
                    "Stop the other instance, or give this one a data directory of its own "
                            + "(wordstats.store.data-dir): two instances on one directory would overwrite "
                            + "each other's counts.");
        }
        return channel;
    }

    private void releaseLock() {
        closeQuietly(lockChannel); // closing the channel releases its lock
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            log.warn("Could not close {}: {}", LOCK_FILE_NAME, e.toString());
        }
    }

    /** Removes the temporary files of writes that did not finish (safe: this instance holds the directory). */
    private void removeUnfinishedWrites() {
        List<Path> unfinished;
        try (Stream<Path> files = Files.list(file.getParent())) {
            unfinished = files.filter(f -> SnapshotFile.isTempOf(file, f)).toList();
        } catch (IOException | RuntimeException e) {
            throw new StartupCheckException(
                    "Cannot list wordstats.store.data-dir " + file.getParent() + " (" + e + ").",
                    "Check the permissions of wordstats.store.data-dir.",
                    e);
        }
        for (Path tmp : unfinished) {
            try {
                if (Files.deleteIfExists(tmp)) {
                    log.info("Removed {}, a snapshot whose write did not finish (the last whole one is kept)", tmp);
                }
            } catch (IOException e) {
                throw new StartupCheckException(
                        "cannot remove the unfinished snapshot " + tmp + " (" + e + ")",
                        "Check the permissions of wordstats.store.data-dir.",
                        e);
            }
        }
    }

    private void restore(BadSnapshotPolicy policy, long maxDistinct) {
        removeUnfinishedWrites();
        if (!Files.exists(file)) {
            log.info("No snapshot at {}: starting with no counts", file);
            return;
        }
        try {
            long start = System.nanoTime();
            Map<String, Long> counts = SnapshotFile.read(file);
            store.restore(counts);
            if (counts.size() > maxDistinct) {
                restoredOverCap = counts.size();
                log.warn(
                        "The snapshot {} holds {} distinct words, more than wordstats.limits.max-distinct-words={}"
                                + " (lowered since it was written?): restored all of them; no new word is counted"
                                + " until the store is under the cap again (raise the cap or DELETE /api/words)",
                        file,
                        counts.size(),
                        maxDistinct);
            }
            writtenAtWordsCounted = store.wordsCounted();
            lastWriteEpochMillis = Files.getLastModifiedTime(file).toMillis();
            lastWriteBytes = Files.size(file);
            lastWriteWords = counts.size();
            log.info(
                    "Restored {} words ({} occurrences) from {} in {} ms",
                    counts.size(),
                    store.total(),
                    file,
                    (System.nanoTime() - start) / 1_000_000);
        } catch (BadSnapshotException e) {
            if (policy == BadSnapshotPolicy.START_EMPTY) {
                Path aside = moveAside();
                log.warn(
                        "{}: moved it to {} and started with no counts (wordstats.store.on-bad-snapshot=start-empty)",
                        e.getMessage(),
                        aside);
            } else {
                throw new StartupCheckException(
                        "Cannot restore the counts: " + e.getMessage() + ".",
                        "Move the file away (its counts are then lost), or set "
                                + "wordstats.store.on-bad-snapshot=start-empty to have the service move it aside "
                                + "and start with no counts.",
                        e);
            }
        } catch (IOException e) {
            throw new StartupCheckException(
                    "Cannot read the snapshot " + file + " (" + e + ").",
                    "Check the permissions of wordstats.store.data-dir and the file.",
                    e);
        }
    }

    private Path moveAside() {
        Path aside =
                file.resolveSibling(FILE_NAME + ".bad-" + ASIDE_STAMP.format(Instant.ofEpochMilli(clock.millis())));
        try {
            Files.move(file, aside, StandardCopyOption.ATOMIC_MOVE);
            SnapshotFile.forceDirectory(file.getParent());
            return aside;
        } catch (IOException e) {
            throw new StartupCheckException(
                    "Cannot move the bad snapshot " + file + " aside to " + aside + " (" + e + ").",
                    "Check the permissions of wordstats.store.data-dir.",
                    e);
        }
    }
}
