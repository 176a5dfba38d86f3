package dev.wordstats.numa.os;

import java.util.BitSet;
import java.util.Locale;

/**
 * The Linux scheduler calls the library needs, through JNA direct mapping to libc:
 * {@code getcpu}, {@code sched_getaffinity} and {@code sched_setaffinity}, each for the calling
 * (OS) thread. Called from a virtual thread, they act on its carrier.
 *
 * <p>Failures of a call become {@link NativeCallException} (the call, errno and its text). Off
 * Linux, or when JNA cannot load (no native library for the platform, a blocked native access),
 * {@link #available()} is false and every method falls back: {@link #getcpu()} gives cpu -1 on
 * node 0, {@link #getAffinity()} gives CPUs {@code 0..availableProcessors()-1}, and
 * {@link #setAffinity} throws {@link UnsupportedOperationException} saying why. This class never
 * fails to load; JNA is touched only by the package-private {@code LibC}.
 *
 * <p>JVM flag: {@code --enable-native-access=ALL-UNNAMED} keeps JDK 25 from warning when JNA loads.
 */
public final class LinuxNative {

    private static final int MAX_MASK_LONGS = 1 << 10; // 65536 CPUs
    private static final int FIRST_MASK_LONGS = 16; // 1024 CPUs, glibc's cpu_set_t size

    private static final String UNAVAILABLE_REASON = probe();
    private static final boolean AVAILABLE = UNAVAILABLE_REASON.isEmpty();

    private LinuxNative() {}

    private static String probe() {
        String os = System.getProperty("os.name", "");
        if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
            return "not Linux (os.name=" + os + ")";
        }
        try {
            LibC.load();
            int[] cpu = new int[1];
            if (LibC.getcpu(cpu, null, null) != 0) {
                return "getcpu failed with errno " + LibC.lastError();
            }
            return "";
        } catch (LinkageError | RuntimeException e) {
            return "JNA could not bind libc: " + e;
        }
    }

    /** Whether the native calls work here (Linux, JNA loaded, libc has getcpu). */
    public static boolean available() {
        return AVAILABLE;
    }

    /** Why {@link #available()} is false; empty when it is true. */
    public static String unavailableReason() {
        return UNAVAILABLE_REASON;
    }

    /**
     * The CPU and kernel node the calling thread runs on (at the moment of the call).
     * Unavailable: cpu -1, node 0.
     *
     * @throws NativeCallException when getcpu fails
     */
    public static CpuLocation getcpu() {
        if (!AVAILABLE) {
            return new CpuLocation(-1, 0);
        }
        int[] cpu = new int[1];
        int[] node = new int[1];
        if (LibC.getcpu(cpu, node, null) != 0) {
            throw failure("getcpu(&cpu, &node, NULL)");
        }
        return new CpuLocation(cpu[0], node[0]);
    }

    /**
     * The CPU the calling thread runs on, or -1 when unavailable; the allocation-light form of
     * {@link #getcpu()} for hot paths.
     *
     * @throws NativeCallException when getcpu fails
     */
    public static int currentCpu() {
        if (!AVAILABLE) {
            return -1;
        }
        int[] cpu = new int[1];
        if (LibC.getcpu(cpu, null, null) != 0) {
            throw failure("getcpu(&cpu, NULL, NULL)");
        }
        return cpu[0];
    }

    /**
     * The CPUs the calling thread may run on ({@code sched_getaffinity(0, ...)}).
     * Unavailable: CPUs {@code 0..availableProcessors()-1}.
     *
     * @throws NativeCallException when the call fails
     */
    public static BitSet getAffinity() {
        if (!AVAILABLE) {
            BitSet all = new BitSet();
            all.set(0, Runtime.getRuntime().availableProcessors());
            return all;
        }
        for (int longs = FIRST_MASK_LONGS; ; longs *= 2) {
            long[] mask = new long[longs];
            if (LibC.sched_getaffinity(0, LibC.size(longs * 8L), mask) == 0) {
                return BitSet.valueOf(mask);
            }
            int errno = LibC.lastError();
            if (errno != Errno.EINVAL || longs >= MAX_MASK_LONGS) { // EINVAL: the kernel's mask is larger
                throw failure("sched_getaffinity(0, " + longs * 8 + ", mask)", errno);
            }
        }
    }

    /**
     * Restricts the calling thread to {@code cpus} ({@code sched_setaffinity(0, ...)}). From a
     * virtual thread this pins its current carrier, and so every virtual thread that later runs on
     * that carrier. Threads the calling thread creates afterwards inherit the mask.
     *
     * @throws IllegalArgumentException      when {@code cpus} is empty
     * @throws NativeCallException           when the kernel refuses (e.g. EINVAL: no allowed CPU in
     *                                       the set; the process's cpuset does not contain them)
     * @throws UnsupportedOperationException when the native calls are unavailable
     */
    public static void setAffinity(BitSet cpus) {
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("an affinity mask needs at least one CPU");
        }
        requireAvailable("set the CPU affinity");
        long[] words = cpus.toLongArray();
        long[] mask = new long[Math.max(FIRST_MASK_LONGS, words.length)];
        System.arraycopy(words, 0, mask, 0, words.length);
        if (LibC.sched_setaffinity(0, LibC.size(mask.length * 8L), mask) != 0) {
            throw failure("sched_setaffinity(0, " + mask.length * 8 + ", {" + format(cpus) + "})");
        }
    }

    /**
     * The scheduling policy and priority of thread {@code tid} (a Linux thread id; 0: the calling thread).
     *
     * @throws UnsupportedOperationException where native calls are unavailable
     * @throws NativeCallException when the kernel refuses (ESRCH: no such thread)
     */
    public static SchedulingPolicy schedulingPolicy(int tid) {
        requireAvailable("read a scheduling policy");
        int policy = LibC.sched_getscheduler(tid);
        if (policy < 0) {
            throw failure("sched_getscheduler(" + tid + ")");
        }
        int[] param = new int[1];
        if (LibC.sched_getparam(tid, param) != 0) {
            throw failure("sched_getparam(" + tid + ", &param)");
        }
        return new SchedulingPolicy(policy & ~SchedulingPolicy.RESET_ON_FORK, param[0]);
    }

    /**
     * Sets thread {@code tid}'s scheduling policy and priority (0: the calling thread).
     *
     * @throws UnsupportedOperationException where native calls are unavailable
     * @throws NativeCallException when the kernel refuses (EPERM: a real-time policy without the right to it)
     */
    public static void setSchedulingPolicy(int tid, SchedulingPolicy policy) {
        requireAvailable("set a scheduling policy");
        if (LibC.sched_setscheduler(tid, policy.policy(), new int[] {policy.priority()}) != 0) {
            throw failure("sched_setscheduler(" + tid + ", " + policy + ")");
        }
    }

    private static void requireAvailable(String what) {
        if (!AVAILABLE) {
            throw new UnsupportedOperationException(
                    "cannot " + what + ": native calls are unavailable (" + UNAVAILABLE_REASON + ")");
        }
    }

    private static NativeCallException failure(String call) {
        return failure(call, LibC.lastError());
    }

    private static NativeCallException failure(String call, int errno) {
        String text;
        try {
            text = LibC.strerror(errno);
        } catch (RuntimeException | LinkageError e) {
            text = "strerror unavailable";
        }
        return new NativeCallException(call, errno, text);
    }

    private static String format(BitSet cpus) {
        // local copy of the cpulist format, so this package does not depend on topology
        StringBuilder out = new StringBuilder();
        for (int start = cpus.nextSetBit(0); start >= 0; ) {
            int end = cpus.nextClearBit(start) - 1;
            out.append(out.isEmpty() ? "" : ",").append(start).append(end > start ? "-" + end : "");
            start = cpus.nextSetBit(end + 1);
        }
        return out.toString();
    }

    /** The errno values the code looks at. */
    static final class Errno {
        static final int EINVAL = 22;

        private Errno() {}
    }
}
