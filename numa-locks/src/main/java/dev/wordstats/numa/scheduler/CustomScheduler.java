package dev.wordstats.numa.scheduler;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one place that reaches into the JDK for virtual threads on a scheduler of our own: JDK 25 has
 * no public API for it, but the package-private constructor
 * {@code java.lang.ThreadBuilders$VirtualThreadBuilder(java.util.concurrent.Executor)} builds a
 * {@link Thread.Builder.OfVirtual} whose threads run their continuations on that executor, and the
 * package-private {@code Thread.currentCarrierThread()} tells which platform thread carries the
 * calling virtual thread. Both need {@code --add-opens java.base/java.lang=ALL-UNNAMED}.
 *
 * <p><b>Detection.</b> When this class loads it looks both up and proves the builder works: it
 * starts one virtual thread on a throwaway executor and checks that the thread ran and that its
 * carrier was the executor's thread (bounded by 5 s). If any step fails (the constructor is gone
 * in this JDK, the module system refuses access, the thread never ran), {@link #available()} is
 * false, {@link #unavailableReason()} says why, and callers fall back to the default scheduler.
 * Setting the system property {@value #DISABLE_PROPERTY} to {@code true} forces that fallback.
 *
 * <p>Never throws while loading; {@link #builder(Executor)} throws only when unavailable.
 */
public final class CustomScheduler {

    /** Set to {@code true} to refuse the custom scheduler (the fallback path, on purpose). */
    public static final String DISABLE_PROPERTY = "wordstats.scheduler.disableCustom";

    private static final long PROBE_TIMEOUT_MILLIS = 5_000;
    private static final MethodHandle BUILDER; // (Executor)Thread.Builder.OfVirtual, or null
    private static final MethodHandle CURRENT_CARRIER; // ()Thread, or null
    private static final String UNAVAILABLE_REASON; // empty when the builder works

    static {
        AtomicReference<String> reason = new AtomicReference<>("");
        MethodHandle currentCarrier = null;
        MethodHandle builder = null;
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(Thread.class, MethodHandles.lookup());
            currentCarrier =
                    lookup.findStatic(Thread.class, "currentCarrierThread", MethodType.methodType(Thread.class));
            if (Boolean.getBoolean(DISABLE_PROPERTY)) {
                reason.set("disabled by -D" + DISABLE_PROPERTY + "=true");
            } else {
                Class<?> type = Class.forName("java.lang.ThreadBuilders$VirtualThreadBuilder");
                builder = MethodHandles.privateLookupIn(type, MethodHandles.lookup())
                        .findConstructor(type, MethodType.methodType(void.class, Executor.class))
                        .asType(MethodType.methodType(Thread.Builder.OfVirtual.class, Executor.class));
                reason.set(Probe.run(builder, currentCarrier));
            }
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // IllegalAccessException / InaccessibleObjectException without --add-opens, or a JDK without them
            reason.set(e.getClass().getSimpleName() + ": " + e.getMessage()
                    + " (needs --add-opens java.base/java.lang=ALL-UNNAMED)");
        }
        UNAVAILABLE_REASON = reason.get();
        BUILDER = UNAVAILABLE_REASON.isEmpty() ? builder : null;
        CURRENT_CARRIER = currentCarrier;
    }

    private CustomScheduler() {}

    /** Whether virtual threads can be given a scheduler of our own in this JVM. */
    public static boolean available() {
        return BUILDER != null;
    }

    /** Why {@link #available()} is false; empty when it is true. */
    public static String unavailableReason() {
        return UNAVAILABLE_REASON;
    }

    /**
     * A new builder of virtual threads that run on {@code scheduler}: the executor receives each
     * continuation step (at start and after every park, sleep or blocking I/O) and the thread that
     * runs it is the virtual thread's carrier for that step.
     *
     * @throws UnsupportedOperationException when {@link #available()} is false
     */
    public static Thread.Builder.OfVirtual builder(Executor scheduler) {
        if (BUILDER == null) {
            throw new UnsupportedOperationException("no custom virtual-thread scheduler: " + UNAVAILABLE_REASON);
        }
        try {
            return (Thread.Builder.OfVirtual) BUILDER.invokeExact(scheduler);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The platform thread that carries the calling thread: its carrier for a mounted virtual
     * thread, itself for a platform thread; {@code null} when the JDK method is not reachable.
     */
    static Thread currentCarrier() {
        if (CURRENT_CARRIER == null) {
            return null;
        }
        try {
            return (Thread) CURRENT_CARRIER.invokeExact();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether {@link #currentCarrier()} can answer. */
    static boolean carrierVisible() {
        return CURRENT_CARRIER != null;
    }

    /**
     * The start-up probe, in a class of its own: its lambdas run on the probe's virtual thread while
     * {@code CustomScheduler} is still being initialized, so they must not belong to it (a class
     * initialization wait would hold the probe until the timeout).
     */
    private static final class Probe {

        private Probe() {}

        /** Starts one virtual thread on a throwaway carrier; empty when it ran there, else why not. */
        static String run(MethodHandle builder, MethodHandle currentCarrier) throws ReflectiveOperationException {
            AtomicReference<Thread> carrierThread = new AtomicReference<>();
            Executor oneShot = task -> {
                Thread carrier = new Thread(task, "wordstats-scheduler-probe");
                carrierThread.set(carrier);
                carrier.setDaemon(true);
                carrier.start();
            };
            AtomicReference<Thread> seen = new AtomicReference<>();
            CountDownLatch ran = new CountDownLatch(1);
            Thread.Builder.OfVirtual probeBuilder;
            try {
                probeBuilder = (Thread.Builder.OfVirtual) builder.invokeExact(oneShot);
            } catch (Throwable e) {
                if (e instanceof Error error) {
                    throw error;
                }
                throw new ReflectiveOperationException("the builder constructor failed", e);
            }
            Thread probe = probeBuilder.unstarted(() -> {
                try {
                    seen.set((Thread) currentCarrier.invokeExact());
                } catch (Throwable e) {
                    seen.set(null);
                }
                ran.countDown();
            });
            probe.start();
            try {
                if (!ran.await(PROBE_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
                    return "a probe virtual thread did not run within " + PROBE_TIMEOUT_MILLIS + " ms";
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted while probing";
            }
            if (!probe.isVirtual() || seen.get() == null || seen.get() != carrierThread.get()) {
                return "a probe virtual thread did not run on the given executor's thread";
            }
            return "";
        }
    }
}
