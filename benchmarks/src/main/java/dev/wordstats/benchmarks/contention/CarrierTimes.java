package dev.wordstats.benchmarks.contention;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the operating system did with the virtual-thread carriers over a span of time, read from
 * Linux's per-thread scheduler statistics ({@code /proc/self/task/TID/schedstat}: nanoseconds on a
 * CPU, nanoseconds runnable but waiting for one). It tells a slow or unfair round caused by the
 * machine (a carrier kept off its CPU by another process, or a carrier left idle by the
 * scheduler) from one caused by the lock.
 *
 * <p>Carriers are found by their thread names, once before a round ({@link #carrierTasks()}): the
 * JDK scheduler's {@code ForkJoinPool-N-worker-M} and the per-node schedulers'
 * {@code wordstats-node...} (Linux keeps the first 15 characters); a carrier the scheduler adds
 * during the round is not counted. A reading then costs about 15 us a carrier. Where the files are
 * missing (not Linux, or a kernel without scheduler statistics) every figure is NaN.
 *
 * @param onCpuNanos   nanoseconds the carriers ran on a CPU, summed over the carriers
 * @param waitingNanos nanoseconds the carriers were runnable but not running (preempted, or woken
 *                     and waiting for a CPU), summed over the carriers
 * @param carriers     the number of carrier threads found
 */
record CarrierTimes(long onCpuNanos, long waitingNanos, int carriers) {

    /** Thread-name prefixes of carriers, as Linux shows them (15 characters at most). */
    static final List<String> CARRIER_NAME_PREFIXES = List.of("ForkJoinPool-", "wordstats-node");

    private static final Path TASKS = Path.of("/proc/self/task");

    /** No figures: the statistics are not available here. */
    static final CarrierTimes UNAVAILABLE = new CarrierTimes(-1, -1, 0);

    /** The carrier threads' directories under {@code /proc/self/task} now; empty when there are none. */
    static List<Path> carrierTasks() {
        return carrierTasks(TASKS);
    }

    /**
     * The carrier threads' directories under {@code tasks}, a directory laid out like
     * {@code /proc/self/task}: found once (reading every thread's name costs about 15 us a thread), so
     * that a reading at the end of a timed round looks at the carriers only.
     */
    static List<Path> carrierTasks(Path tasks) {
        List<Path> carriers = new ArrayList<>();
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path thread : threads) {
                try {
                    String name = Files.readString(thread.resolve("comm"), StandardCharsets.US_ASCII)
                            .strip();
                    if (isCarrier(name)) {
                        carriers.add(thread);
                    }
                } catch (IOException e) {
                    // the thread ended while we looked
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        return List.copyOf(carriers);
    }

    /**
     * The times of {@code carriers} so far, or {@link #UNAVAILABLE} when a file is missing or
     * garbled (a carrier that ended counts as missing).
     */
    static CarrierTimes read(List<Path> carriers) {
        if (carriers.isEmpty()) {
            return UNAVAILABLE;
        }
        long onCpu = 0;
        long waiting = 0;
        try {
            for (Path thread : carriers) {
                String[] fields = Files.readString(thread.resolve("schedstat"), StandardCharsets.US_ASCII)
                        .strip()
                        .split("\\s+");
                if (fields.length < 2) {
                    return UNAVAILABLE;
                }
                onCpu += Long.parseLong(fields[0]);
                waiting += Long.parseLong(fields[1]);
            }
        } catch (IOException | NumberFormatException e) {
            return UNAVAILABLE;
        }
        return new CarrierTimes(onCpu, waiting, carriers.size());
    }

    static boolean isCarrier(String threadName) {
        return CARRIER_NAME_PREFIXES.stream().anyMatch(threadName::startsWith);
    }

    /** Whether both readings exist. */
    boolean available() {
        return carriers > 0;
    }

    /**
     * CPUs' worth of carrier time from {@code start} to this reading over {@code wallNanos}: 2.0 when
     * two carriers ran all the time, 1.0 when one of them idled or was kept off its CPU. NaN when a
     * reading is missing.
     */
    double busyCpusSince(CarrierTimes start, long wallNanos) {
        if (!available() || !start.available() || wallNanos <= 0) {
            return Double.NaN;
        }
        return (double) (onCpuNanos - start.onCpuNanos) / wallNanos;
    }

    /**
     * Percent of {@code wallNanos} x carriers that the carriers spent runnable but off a CPU
     * (preempted by other threads or processes, or woken and not yet running) from {@code start} to
     * this reading. NaN when a reading is missing. Linux adds a wait to a thread's statistics when
     * the wait ends, so a wait that began before {@code start} counts whole: a span shorter than the
     * machine's waits (a test's round of microseconds on a busy host) can read above 100.
     */
    double waitingPctSince(CarrierTimes start, long wallNanos) {
        if (!available() || !start.available() || wallNanos <= 0) {
            return Double.NaN;
        }
        return 100.0 * (waitingNanos - start.waitingNanos) / ((double) wallNanos * carriers);
    }
}
