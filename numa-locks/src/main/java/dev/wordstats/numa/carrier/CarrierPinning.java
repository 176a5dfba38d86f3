package dev.wordstats.numa.carrier;

import dev.wordstats.numa.os.LinuxNative;
import dev.wordstats.numa.topology.NumaNode;
import dev.wordstats.numa.topology.Topology;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Pins every carrier thread of the default virtual-thread scheduler to one CPU, balanced over the
 * nodes of a {@link Topology} (real or simulated), and verifies each pin by reading the carrier's
 * affinity back.
 *
 * <p><b>How.</b> With P the scheduler's parallelism ({@code jdk.virtualThreadScheduler.parallelism},
 * default {@code availableProcessors()}), P virtual threads run one shared {@link PinningTask}: each
 * busy-waits (bounded by a deadline, {@link Thread#onSpinWait()}) until all P run at once: then each
 * occupies a distinct carrier. Each calls {@code sched_setaffinity} for its OS thread, which is the carrier, and reads
 * the affinity back. CPUs are dealt round-robin over nodes, then over the CPUs within a node
 * (first SMT thread of each core before its siblings); with more carriers than CPUs, CPUs repeat.
 *
 * <p><b>Limits.</b>
 * <ul>
 *   <li>P tasks reach P carriers. A live carrier beyond the parallelism (a compensation worker not
 *       yet retired) is not reached: the report then names it and says incomplete.</li>
 *   <li>Only the carriers that exist during the call are pinned. Carriers the scheduler adds later
 *       (compensation for a virtual thread blocked in {@code Object.wait}, file I/O, class loading)
 *       are not pinned by this class; since Linux threads inherit the affinity of the thread that
 *       creates them, such a carrier starts pinned to the CPU of the carrier that created it.</li>
 *   <li>Any platform thread that a pinned carrier starts inherits its single-CPU mask too.</li>
 *   <li>The call must come from a platform thread, while the scheduler is not saturated: a
 *       carrier held by a long-running virtual thread is never reached, and the call reports
 *       incomplete after the timeout (5 s) instead of hanging.</li>
 *   <li>Pinning is process-wide and not undone; a CPU later removed from the process's cpuset
 *       makes the kernel widen the mask again.</li>
 * </ul>
 */
public final class CarrierPinning {

    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
    private static final String PARALLELISM_PROPERTY = "jdk.virtualThreadScheduler.parallelism";
    private static final MethodHandle CURRENT_CARRIER = currentCarrierHandle();

    private CarrierPinning() {}

    /**
     * Pins every carrier of the default scheduler (see the class comment for the limits). Never
     * throws for a machine that cannot pin (no native calls, a carrier not reached in time, a CPU
     * refused by the kernel): the report says so with {@code complete == false}.
     *
     * @throws IllegalStateException when called from a virtual thread (it would hold a carrier)
     */
    public static PinningReport pinCarriers(Topology topology) {
        return pinCarriers(topology, schedulerParallelism(), DEFAULT_TIMEOUT);
    }

    /** The default virtual-thread scheduler's parallelism (its number of carriers), as the JDK computes it. */
    public static int schedulerParallelism() {
        String value = System.getProperty(PARALLELISM_PROPERTY);
        if (value != null) {
            try {
                int parsed = Integer.parseInt(value.strip());
                if (parsed > 0) {
                    return parsed;
                }
            } catch (NumberFormatException e) {
                // the JDK fails on a bad value; here the default is the best guess
            }
        }
        return Runtime.getRuntime().availableProcessors();
    }

    /** Serialized: two pinnings at once would compete for the carriers and both report incomplete. */
    static synchronized PinningReport pinCarriers(Topology topology, int carriers, Duration timeout) {
        Objects.requireNonNull(topology, "topology");
        if (carriers < 1) {
            throw new IllegalArgumentException("carriers must be >= 1, was " + carriers);
        }
        if (Thread.currentThread().isVirtual()) {
            throw new IllegalStateException("pinCarriers must be called from a platform thread: the calling "
                    + "virtual thread holds a carrier, so the others could never all run at once");
        }
        if (!LinuxNative.available()) {
            return new PinningReport(List.of(), false, "native calls unavailable: " + LinuxNative.unavailableReason());
        }
        List<Integer> order = balancedCpuOrder(topology);
        long deadline = System.nanoTime() + timeout.toNanos();
        PinningTask task = new PinningTask(topology, order, carriers, deadline);
        List<Thread> threads = new ArrayList<>(carriers);
        for (int i = 0; i < carriers; i++) {
            threads.add(Thread.ofVirtual().name("carrier-pinning-" + i).start(task));
        }
        boolean allEnded = true;
        for (Thread thread : threads) {
            try {
                long left = Math.max(0, deadline - System.nanoTime())
                        + Duration.ofSeconds(1).toNanos();
                allEnded &= thread.join(Duration.ofNanos(left));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                task.abort();
                return task.report(List.of(), false, "interrupted while pinning " + carriers + " carriers");
            }
        }
        if (task.state() != PinningTask.GO) {
            return task.report(
                    List.of(),
                    false,
                    "only " + task.arrivedAtAbort() + " of " + carriers + " carriers ran the pinning task within "
                            + timeout.toMillis() + " ms (scheduler busy?)");
        }
        if (!allEnded) {
            return task.report(List.of(), false, "a pinning task did not end in time");
        }
        return task.report(
                carriersNotReached(task.pinnedCarriers()),
                true,
                carriers + " carriers of the default scheduler over "
                        + topology.nodeCount() + (topology.simulated() ? " simulated" : "") + " node(s)"
                        + (carriers > order.size()
                                ? "; more carriers than CPUs (" + order.size() + "), CPUs shared"
                                : ""));
    }

    /** A problem naming the live carriers not pinned (e.g. compensation workers not yet retired), or none. */
    private static List<String> carriersNotReached(Set<String> pinned) {
        List<String> unpinned = liveCarrierNames().stream()
                .filter(name -> !pinned.contains(name))
                .sorted()
                .toList();
        return unpinned.isEmpty()
                ? List.of()
                : List.of(unpinned.size() + " live carrier(s) not reached: " + String.join(", ", unpinned));
    }

    /** The names of the live carrier threads ({@code jdk.internal.misc.CarrierThread}) of the JVM. */
    static List<String> liveCarrierNames() {
        List<String> names = new ArrayList<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getClass().getName().equals("jdk.internal.misc.CarrierThread") && thread.isAlive()) {
                names.add(thread.getName());
            }
        }
        return names;
    }

    /**
     * The CPUs in pinning order: round-robin over the nodes, within a node the first SMT thread of
     * each core before the siblings, each group ascending.
     */
    static List<Integer> balancedCpuOrder(Topology topology) {
        List<List<Integer>> perNode = new ArrayList<>();
        for (NumaNode node : topology.nodes()) {
            List<Integer> cpus = new ArrayList<>(node.cpus());
            cpus.sort(Comparator.<Integer>comparingInt(
                            cpu -> topology.threadSiblings(cpu).indexOf(cpu))
                    .thenComparingInt(cpu -> cpu));
            perNode.add(cpus);
        }
        List<Integer> order = new ArrayList<>(topology.cpuCount());
        for (int round = 0; order.size() < topology.cpuCount(); round++) {
            for (List<Integer> cpus : perNode) {
                if (round < cpus.size()) {
                    order.add(cpus.get(round));
                }
            }
        }
        return List.copyOf(order);
    }

    /** The name of the calling virtual thread's carrier. */
    static String carrierName() {
        if (CURRENT_CARRIER != null) {
            try {
                return ((Thread) CURRENT_CARRIER.invokeExact()).getName();
            } catch (Throwable e) {
                // fall through to the name the virtual thread's toString shows
            }
        }
        return carrierOf(Thread.currentThread().toString());
    }

    /**
     * The carrier named in a virtual thread's {@code toString()}: {@code
     * VirtualThread[#31,name]/runnable@ForkJoinPool-1-worker-1}.
     */
    static String carrierOf(String virtualThreadText) {
        int at = virtualThreadText.lastIndexOf('@');
        return at >= 0 ? virtualThreadText.substring(at + 1) : virtualThreadText;
    }

    /** {@code Thread.currentCarrierThread()} when java.lang is opened to us, else null. */
    private static MethodHandle currentCarrierHandle() {
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(Thread.class, MethodHandles.lookup());
            return lookup.findStatic(Thread.class, "currentCarrierThread", MethodType.methodType(Thread.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
