package dev.wordstats.numa.scheduler;

import dev.wordstats.numa.os.LinuxNative;
import dev.wordstats.numa.os.NativeCallException;
import dev.wordstats.numa.os.SchedulingPolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * Keeps the JDK's {@code VirtualThread-unblocker} ahead of real-time carriers. A virtual thread that
 * blocked on a monitor ({@code synchronized}; JEP 491) is made runnable again by that one platform thread,
 * not by the thread that left the monitor ({@code java.lang.VirtualThread.unblockVirtualThreads}). In a
 * JVM started under a real-time policy ({@code chrt -r 10 java ...}) it inherits the carriers' policy and
 * priority, and under {@code SCHED_RR} it then waits behind busy carriers for their 100 ms slices: every
 * wake-up from a monitor can take that long: at the service level, slow-path stripe-lock waits behind
 * {@code synchronized}-based locks, gone with the unblocker one priority above
 * (benchmarks/results/2026-11-27-service-locks-gatling-unblocker). The {@code java.util.concurrent}
 * locks wake their waiters from the releasing thread and do not meet this.
 *
 * <p>{@link #keepAheadOfCarriers()} does nothing unless the calling thread (taken to run as the carriers
 * do: they inherit the policy of the thread that starts them) has a real-time policy; then it gives the
 * unblocker the same policy one priority higher. Linux keeps 15 bytes of a thread's name, so it cannot
 * tell the unblocker from the {@code VirtualThread-unparker} threads that custom schedulers (this
 * library's per-node ones) use for timed parks; they wake virtual threads too, and those alive at the
 * call are raised with it (one started later keeps its creator's policy). It never lowers anything, and
 * says what it did in one line. {@link dev.wordstats.numa.setup.NumaSetup} calls it, so the service and
 * the benchmarks do.
 */
public final class UnblockerPriority {

    /** The JDK's thread that unblocks virtual threads after a monitor exit. */
    static final String THREAD_NAME = "VirtualThread-unblocker";

    /**
     * What Linux keeps of a thread's name in {@code /proc/PID/task/TID/comm}, the first 15 bytes: the same for
     * the unblocker and the JDK's {@code VirtualThread-unparker} threads.
     */
    static final String COMM = THREAD_NAME.substring(0, 15);

    /** How long to look for the unblocker after making sure the JDK started it. */
    private static final long FIND_NANOS = 200_000_000L;

    private UnblockerPriority() {}

    /**
     * Raises the JVM's {@code VirtualThread-unblocker} one priority above the calling thread's real-time
     * policy, or leaves it as is; either way, one line on what was done.
     */
    public static String keepAheadOfCarriers() {
        if (!LinuxNative.available()) {
            return "left as is (" + LinuxNative.unavailableReason() + ")";
        }
        SchedulingPolicy carriers = LinuxNative.schedulingPolicy(0);
        Optional<SchedulingPolicy> target = above(carriers);
        if (target.isEmpty()) {
            return "left as is (this JVM runs " + carriers + ")";
        }
        Thread.ofVirtual().unstarted(() -> {}); // initializes VirtualThread, which starts the unblocker
        List<Integer> tids;
        try {
            tids = find(Path.of("/proc/self/task"));
        } catch (UncheckedIOException e) { // no /proc: a start-up must not fail for this
            return "left as is (" + e.getMessage() + "; this JVM runs " + carriers + ")";
        }
        if (tids.isEmpty()) {
            return "not found (no thread named " + THREAD_NAME + "; this JVM runs " + carriers + ")";
        }
        try {
            for (int tid : tids) {
                if (LinuxNative.schedulingPolicy(tid).priority() < target.get().priority()) {
                    LinuxNative.setSchedulingPolicy(tid, target.get());
                }
            }
        } catch (NativeCallException e) {
            return "left as is (" + e.getMessage() + "; this JVM runs " + carriers + ")";
        }
        return "VirtualThread-unblocker (and -unparker) " + tids + " at " + target.get() + ", above the carriers' "
                + carriers;
    }

    /**
     * The policy that keeps a thread ahead of threads running {@code carriers}: the same real-time policy
     * one priority higher; none when {@code carriers} is not real-time or already at the top priority.
     */
    static Optional<SchedulingPolicy> above(SchedulingPolicy carriers) {
        if (!carriers.realTime() || carriers.priority() >= SchedulingPolicy.MAX_REAL_TIME_PRIORITY) {
            return Optional.empty();
        }
        return Optional.of(new SchedulingPolicy(carriers.policy(), carriers.priority() + 1));
    }

    /** The unblocker's thread ids under {@code tasks}, looked for until it has named itself (bounded). */
    static List<Integer> find(Path tasks) {
        long deadline = System.nanoTime() + FIND_NANOS;
        List<Integer> tids = tidsNamed(tasks, COMM);
        while (tids.isEmpty() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(2_000_000L); // a new thread sets its name as it starts to run
            tids = tidsNamed(tasks, COMM);
        }
        return tids;
    }

    /**
     * The ids of the threads under {@code tasks} (a {@code /proc/PID/task} directory) whose {@code comm} is
     * {@code comm}; a thread that ends while it is read is skipped.
     */
    static List<Integer> tidsNamed(Path tasks, String comm) {
        List<Integer> tids = new ArrayList<>();
        try (Stream<Path> threads = Files.list(tasks)) {
            for (Path thread : (Iterable<Path>) threads::iterator) {
                String name;
                try {
                    name = Files.readString(thread.resolve("comm"), StandardCharsets.UTF_8)
                            .strip();
                } catch (IOException gone) {
                    continue;
                }
                if (name.equals(comm)) {
                    tids.add(Integer.parseInt(thread.getFileName().toString()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + tasks, e);
        }
        tids.sort(null);
        return tids;
    }
}
