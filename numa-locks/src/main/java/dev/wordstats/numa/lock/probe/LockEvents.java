package dev.wordstats.numa.lock.probe;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import jdk.jfr.Configuration;

/**
 * The JDK Flight Recorder events of the library's locks, written by {@link JfrLockProbe}, all in the
 * category {@value #CATEGORY}, and the settings file that turns them on for microsecond critical
 * sections. In a recording:
 * <ul>
 *   <li>{@value #WAIT}: an acquisition that had to wait, its duration the wait (lock type, lock id, wait
 *       time, the waiter's node, handoff within or across nodes), with a stack trace whose top frame is the
 *       lock's caller, written after the release; recorded from JFR's {@code threshold} (default 20 ms, as
 *       for the JDK's lock events);
 *   <li>{@value #RESERVATION}: a queue leader took the reservation (lock type, lock id, node);
 *   <li>{@value #COMBINING_BATCH}: a combiner ran a batch of its waiters' critical sections (size,
 *       length); off by default, throttled;
 *   <li>{@value #MODE_SWITCH}: an adaptive lock switched mode.
 * </ul>
 * {@value #SETTINGS} (at the root of the jar, and {@link #settings()}) turns all four on, the lock waits
 * from 10 us. JFR takes a settings file by path, or by name from the JDK's {@code lib/jfr} directory, not
 * from a jar: copy it out first ({@code unzip -p numa-locks-*.jar wordstats-locks.jfc > wordstats-locks.jfc}),
 * then {@code java -XX:StartFlightRecording:settings=default,settings=$PWD/wordstats-locks.jfc ...}. Its
 * {@code <control>} section has two options, {@code lock-wait-threshold} (e.g. {@code 1ms}) and
 * {@code lock-stack-traces} ({@code true}/{@code false}), given beside it on the command line or to
 * {@code jfr configure}; the module's README shows each way.
 */
public final class LockEvents {

    /** The JFR category of every event of the library. */
    public static final String CATEGORY = "wordstats";

    /** The event name of an acquisition that had to wait. */
    public static final String WAIT = "dev.wordstats.LockWait";

    /** The event name of a reservation taken. */
    public static final String RESERVATION = "dev.wordstats.LockReservation";

    /** The event name of a combining batch. */
    public static final String COMBINING_BATCH = "dev.wordstats.CombiningBatch";

    /** The event name of a mode switch. */
    public static final String MODE_SWITCH = "dev.wordstats.LockModeSwitch";

    /** The name of the settings file, a resource at the root of the jar. */
    public static final String SETTINGS = "wordstats-locks.jfc";

    private LockEvents() {}

    /**
     * The library's settings file ({@value #SETTINGS}) as a JFR configuration, e.g. for
     * {@code new Recording(LockEvents.settings())} or {@code new RecordingStream(LockEvents.settings())}.
     */
    public static Configuration settings() {
        try (InputStream in = LockEvents.class.getResourceAsStream("/" + SETTINGS)) {
            if (in == null) {
                throw new IllegalStateException(SETTINGS + " is missing from the numa-locks jar");
            }
            try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
                return Configuration.create(reader);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ParseException e) {
            throw new IllegalStateException(SETTINGS + " in the numa-locks jar does not parse", e);
        }
    }
}
