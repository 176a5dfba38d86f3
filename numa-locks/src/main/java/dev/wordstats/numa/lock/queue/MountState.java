package dev.wordstats.numa.lock.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Whether a thread is running now: for a virtual thread, whether it is mounted on a carrier and
 * running (not parked, yielding, blocked or waiting for a carrier). Read from the private
 * {@code state} field of {@code java.lang.VirtualThread} through a private-lookup VarHandle, which
 * needs {@code --add-opens java.base/java.lang=ALL-UNNAMED} (set by the build for tests, the
 * service and JMH).
 *
 * <p>Without that flag, or on a JDK whose {@code VirtualThread} has no such field, every thread
 * counts as running: a waiter then spins its bounded rounds and parks, as it would without this
 * check. A platform thread always counts as running: the OS time-slices it.
 */
final class MountState {

    private static final VarHandle STATE; // VirtualThread.state, read opaque; null when not reachable
    private static final int RUNNING; // the value of VirtualThread.RUNNING (mounted and running)

    static {
        VarHandle state = null;
        int running = -1;
        try {
            Class<?> virtual = Class.forName("java.lang.VirtualThread");
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(virtual, MethodHandles.lookup());
            running = (int)
                    lookup.findStaticVarHandle(virtual, "RUNNING", int.class).get();
            state = lookup.findVarHandle(virtual, "state", int.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            state = null; // not opened to us, or another JDK's layout: every thread counts as running
        }
        STATE = state;
        RUNNING = running;
    }

    private MountState() {}

    /** Whether the owner-running check reads real virtual-thread states (false: every thread counts as running). */
    static boolean available() {
        return STATE != null;
    }

    /**
     * Whether {@code thread} is running now; {@code true} for null, for platform threads and when
     * the state cannot be read. A hint: the answer may be stale by the time it is used.
     */
    static boolean isRunning(Thread thread) {
        if (thread == null || STATE == null || !thread.isVirtual()) {
            return true;
        }
        return (int) STATE.getOpaque(thread) == RUNNING;
    }
}
