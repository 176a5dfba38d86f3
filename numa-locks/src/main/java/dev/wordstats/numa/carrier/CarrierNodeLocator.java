package dev.wordstats.numa.carrier;

import dev.wordstats.numa.os.LinuxNative;
import dev.wordstats.numa.topology.Cpu;
import dev.wordstats.numa.topology.NodeLocator;
import dev.wordstats.numa.topology.Topology;
import java.lang.reflect.Constructor;
import java.util.Arrays;
import java.util.function.IntSupplier;

/**
 * The node of the calling thread, from the CPU it runs on ({@code getcpu}) mapped through a
 * {@link Topology} (real or simulated), cached per carrier thread and refreshed every N lookups.
 *
 * <p><b>Cache.</b> A virtual thread asks on behalf of its carrier: the cache is a
 * {@code jdk.internal.misc.CarrierThreadLocal} (a thread local that, read from a virtual thread,
 * uses its carrier's map), so a hit costs a thread-local read and a decrement, and a virtual thread
 * that just mounted sees the answer its carrier already has. The class is internal: it needs
 * {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED}. Without the flag the locator uses
 * a plain {@link ThreadLocal} (a cache per virtual thread, so short-lived virtual threads mostly
 * miss) and {@link #carrierLocal()} is false.
 *
 * <p><b>Freshness.</b> Every {@code refreshEvery}-th lookup on a carrier calls {@code getcpu}
 * again (the first lookup always does). With carriers pinned by {@link CarrierPinning} the cached
 * node is exact; unpinned, the OS may move a carrier and the answer is stale for up to
 * {@code refreshEvery - 1} lookups: a locality hint, never a correctness issue for locks.
 * A CPU outside the topology (or {@code getcpu} unavailable) reads as node 0.
 *
 * <p>With one node, {@link #currentNode()} returns 0 without any native call or cache access.
 *
 * <p><b>Accepted race.</b> The cache slot is read and written with plain accesses by whichever
 * thread runs on the carrier. A virtual thread does not unmount inside {@link #currentNode()} (it
 * has no blocking point and a native call pins it), so one carrier never runs two lookups at once.
 */
public final class CarrierNodeLocator implements NodeLocator {

    /** The default refresh interval, in lookups per carrier. */
    public static final int DEFAULT_REFRESH_EVERY = 1024;

    private static final Constructor<?> CARRIER_THREAD_LOCAL = carrierThreadLocalConstructor();

    private final int nodeCount;
    private final int[] nodeByCpu; // index: cpu id; -1 for CPUs outside the topology
    private final int refreshEvery;
    private final IntSupplier cpuSource;
    private final ThreadLocal<Slot> cache;
    private final boolean carrierLocal;

    /** The per-carrier cache entry; only the thread running on that carrier reads or writes it. */
    private static final class Slot {
        int node; // plain: written on refresh by the carrier's current thread
        int remaining; // plain: lookups left before the next refresh
    }

    /** A locator over {@code topology} refreshing every {@value #DEFAULT_REFRESH_EVERY} lookups. */
    public static CarrierNodeLocator create(Topology topology) {
        return new CarrierNodeLocator(topology, DEFAULT_REFRESH_EVERY);
    }

    /**
     * A locator over {@code topology}.
     *
     * @param refreshEvery lookups per carrier between two {@code getcpu} calls, at least 1
     *                     (1 = a native call every time)
     */
    public CarrierNodeLocator(Topology topology, int refreshEvery) {
        this(topology, refreshEvery, LinuxNative::currentCpu, true);
    }

    /** For tests: a given source of "the current CPU", and optionally no carrier-local cache. */
    CarrierNodeLocator(Topology topology, int refreshEvery, IntSupplier cpuSource, boolean useCarrierLocal) {
        if (refreshEvery < 1) {
            throw new IllegalArgumentException(
                    "refreshEvery must be >= 1 (lookups between two getcpu calls), was " + refreshEvery);
        }
        this.nodeCount = topology.nodeCount();
        int maxCpu = topology.cpus().stream().mapToInt(Cpu::id).max().orElse(0);
        this.nodeByCpu = new int[maxCpu + 1];
        Arrays.fill(nodeByCpu, -1);
        for (Cpu cpu : topology.cpus()) {
            nodeByCpu[cpu.id()] = cpu.node();
        }
        this.refreshEvery = refreshEvery;
        this.cpuSource = cpuSource;
        ThreadLocal<Slot> local = useCarrierLocal ? newCarrierThreadLocal() : null;
        this.carrierLocal = local != null;
        this.cache = local != null ? local : new ThreadLocal<>();
    }

    @Override
    public int nodeCount() {
        return nodeCount;
    }

    @Override
    public int currentNode() {
        if (nodeCount == 1) {
            return 0;
        }
        Slot slot = cache.get();
        if (slot == null) {
            slot = new Slot();
            cache.set(slot);
        }
        if (--slot.remaining < 0) {
            slot.node = nodeOf(cpuSource.getAsInt());
            slot.remaining = refreshEvery - 1;
        }
        return slot.node;
    }

    /** The node of a CPU, 0 when it is outside the topology (or -1: unknown). */
    int nodeOf(int cpu) {
        if (cpu < 0 || cpu >= nodeByCpu.length || nodeByCpu[cpu] < 0) {
            return 0;
        }
        return nodeByCpu[cpu];
    }

    /** Whether the cache is per carrier ({@code CarrierThreadLocal}) rather than per thread. */
    public boolean carrierLocal() {
        return carrierLocal;
    }

    /** Lookups per carrier between two {@code getcpu} calls. */
    public int refreshEvery() {
        return refreshEvery;
    }

    @Override
    public String toString() {
        return "CarrierNodeLocator[nodes=" + nodeCount + ", refreshEvery=" + refreshEvery + ", cache="
                + (carrierLocal ? "per carrier" : "per thread") + "]";
    }

    @SuppressWarnings("unchecked")
    private static ThreadLocal<Slot> newCarrierThreadLocal() {
        if (CARRIER_THREAD_LOCAL == null) {
            return null;
        }
        try {
            return (ThreadLocal<Slot>) CARRIER_THREAD_LOCAL.newInstance();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** CarrierThreadLocal's constructor if the package is exported to us, else null. */
    private static Constructor<?> carrierThreadLocalConstructor() {
        try {
            Class<?> type = Class.forName("jdk.internal.misc.CarrierThreadLocal");
            if (!ThreadLocal.class.isAssignableFrom(type)) {
                return null;
            }
            Constructor<?> constructor = type.getConstructor();
            constructor.newInstance(); // fails here without --add-exports
            return constructor;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }
}
