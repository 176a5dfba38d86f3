package dev.wordstats.numa.os;

import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;

/**
 * JNA direct mapping ({@link Native#register}) of the libc calls this library makes. The only class
 * that touches JNA: {@link LinuxNative} reaches it from method bodies alone and guards its first
 * use, so a missing or broken JNA becomes {@code LinuxNative.available() == false} instead of a
 * class-loading failure elsewhere. Callers read errno with {@link #lastError()} right after a call
 * returns -1 (JNA saves errno after each native call, per thread).
 */
final class LibC {

    static {
        Native.register(LibC.class, "c");
    }

    private LibC() {}

    /** Forces the class (and so the registration) to load; throws what the registration threw. */
    static void load() {
        // the static initializer did the work
    }

    /** {@code int getcpu(unsigned *cpu, unsigned *node, void *tcache)} (glibc 2.29+, vDSO-backed). */
    static native int getcpu(int[] cpu, int[] node, Pointer unused);

    /** {@code int sched_getaffinity(pid_t pid, size_t cpusetsize, cpu_set_t *mask)}. */
    static native int sched_getaffinity(int pid, NativeLong cpusetsize, long[] mask);

    /** {@code int sched_setaffinity(pid_t pid, size_t cpusetsize, const cpu_set_t *mask)}. */
    static native int sched_setaffinity(int pid, NativeLong cpusetsize, long[] mask);

    /** {@code char *strerror(int errnum)}. */
    static native int sched_getscheduler(int pid);

    static native int sched_getparam(int pid, int[] param);

    static native int sched_setscheduler(int pid, int policy, int[] param);

    static native String strerror(int errnum);

    static int lastError() {
        return Native.getLastError();
    }

    static NativeLong size(long bytes) {
        return new NativeLong(bytes);
    }
}
