package dev.wordstats.numa.setup;

import dev.wordstats.numa.carrier.CarrierNodeLocator;
import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.carrier.PinningReport;
import dev.wordstats.numa.scheduler.NodeSchedulers;
import dev.wordstats.numa.scheduler.Placement;
import dev.wordstats.numa.scheduler.SchedulerMode;
import dev.wordstats.numa.scheduler.UnblockerPriority;
import dev.wordstats.numa.topology.NodeLocator;
import dev.wordstats.numa.topology.Topology;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The NUMA set-up of a process, in one place: the topology (real, or the allowed CPUs split into
 * simulated nodes), the pinning of the default scheduler's carriers, the per-node virtual-thread
 * schedulers and the node locator the locks ask. The service and the benchmarks both build theirs
 * here.
 *
 * <pre>{@code
 * try (NumaSetup numa = NumaSetup.builder().simulatedNodes(2).scheduler(SchedulerMode.PER_NODE).build()) {
 *     Thread t = numa.schedulers().builder(1).start(task); // runs only on node 1's carriers
 *     NodeLocator nodes = numa.locator();                    // answers 1 inside t
 * }
 * }</pre>
 *
 * <p>The locator: in per-node mode, a thread on one of the node schedulers' carriers gets its
 * carrier's node; every other thread (and every thread in default mode) gets the per-carrier
 * cached {@code getcpu} lookup of {@link CarrierNodeLocator}. {@link #close()} stops the per-node
 * carriers; pinning of the default scheduler's carriers is process-wide and stays.
 *
 * <p>In a JVM under a real-time policy the set-up also puts the JDK's {@code VirtualThread-unblocker}
 * one priority above the carriers ({@link UnblockerPriority}): else every wake-up from a monitor can
 * wait a round-robin slice. Process-wide too, and nothing at all under the default policy.
 */
public final class NumaSetup implements AutoCloseable {

    private final Topology topology;
    private final CarrierNodeLocator carrierLocator;
    private final NodeLocator locator;
    private final PinningReport pinning; // null when not pinned
    private final NodeSchedulers schedulers;
    private final String unblocker; // UnblockerPriority's line

    private NumaSetup(Builder builder) {
        Topology detected = builder.topology.get();
        int simulated = builder.simulatedNodes;
        if (simulated > detected.cpuCount()) {
            throw new IllegalArgumentException("simulated nodes must be from 0 (real topology) to the "
                    + detected.cpuCount() + " CPUs this process may use, was " + simulated);
        }
        this.topology = simulated > 0 ? detected.withSimulatedNodes(simulated) : detected;
        this.carrierLocator = new CarrierNodeLocator(topology, builder.nodeRefreshEvery);
        this.pinning = builder.pinCarriers ? CarrierPinning.pinCarriers(topology) : null;
        this.schedulers =
                NodeSchedulers.create(topology, builder.scheduler, builder.placement, builder.carriersPerNode);
        this.locator = schedulers.locator(carrierLocator);
        this.unblocker = UnblockerPriority.keepAheadOfCarriers();
    }

    /** A builder with the defaults: real topology, no pinning, default scheduler, round-robin placement. */
    public static Builder builder() {
        return new Builder();
    }

    /** The topology the locator and the schedulers use (simulated when asked). */
    public Topology topology() {
        return topology;
    }

    /** The node lookup for locks: from the scheduler in per-node mode, else the carrier cache. */
    public NodeLocator locator() {
        return locator;
    }

    /** The cached {@code getcpu} locator (the fallback of {@link #locator()}). */
    public CarrierNodeLocator carrierLocator() {
        return carrierLocator;
    }

    /** Whether the {@code getcpu} cache is per carrier (false when the JVM flags are missing). */
    public boolean carrierLocal() {
        return carrierLocator.carrierLocal();
    }

    /** What pinning the default scheduler's carriers reported; empty when pinning was off. */
    public Optional<PinningReport> pinning() {
        return Optional.ofNullable(pinning);
    }

    /** The per-node schedulers (in default mode: every node on the default scheduler). */
    public NodeSchedulers schedulers() {
        return schedulers;
    }

    /** One line on the nodes: how many, real or simulated, and from where. */
    public String nodesSummary() {
        return topology.nodeCount() + (topology.simulated() ? " simulated" : " real") + " (" + topology.summary() + ")";
    }

    /** One line on the pinning of the default scheduler's carriers. */
    public String pinningSummary() {
        return pinning == null ? "off" : pinning.summary();
    }

    /** One line on the scheduler in effect (says so when per-node mode fell back). */
    public String schedulerSummary() {
        return schedulers.summary();
    }

    /** One line on the JDK's virtual-thread unblocker: raised above real-time carriers, or left as is. */
    public String unblockerSummary() {
        return unblocker;
    }

    /** Stops the per-node carriers (see {@link NodeSchedulers#close()}). */
    @Override
    public void close() {
        schedulers.close();
    }

    /** The choices of a {@link NumaSetup}; each has a default, so {@code builder().build()} works. */
    public static final class Builder {

        private Supplier<Topology> topology = Topology::detect;
        private int simulatedNodes;
        private boolean pinCarriers;
        private SchedulerMode scheduler = SchedulerMode.DEFAULT;
        private Placement placement = Placement.ROUND_ROBIN;
        private int carriersPerNode;
        private int nodeRefreshEvery = CarrierNodeLocator.DEFAULT_REFRESH_EVERY;

        private Builder() {}

        /** Start from this topology instead of detecting the machine's (for tests and fixtures). */
        public Builder topology(Topology topology) {
            Objects.requireNonNull(topology, "topology");
            this.topology = () -> topology;
            return this;
        }

        /** 0 (default): the real nodes; N >= 1: the allowed CPUs split into N simulated nodes. */
        public Builder simulatedNodes(int nodes) {
            if (nodes < 0) {
                throw new IllegalArgumentException(
                        "simulated nodes must be >= 0 (0 = the real topology), was " + nodes);
            }
            this.simulatedNodes = nodes;
            return this;
        }

        /** Pin each carrier of the JDK's default scheduler to one CPU ({@link CarrierPinning}); default off. */
        public Builder pinCarriers(boolean pin) {
            this.pinCarriers = pin;
            return this;
        }

        /** The virtual-thread scheduler: {@link SchedulerMode#DEFAULT} (default) or per node. */
        public Builder scheduler(SchedulerMode mode) {
            this.scheduler = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /** How threads that name no node are spread; default round-robin. */
        public Builder placement(Placement placement) {
            this.placement = Objects.requireNonNull(placement, "placement");
            return this;
        }

        /** Carriers per node in per-node mode; 0 (default) = one per CPU of the node. */
        public Builder carriersPerNode(int carriers) {
            if (carriers < 0) {
                throw new IllegalArgumentException("carriers per node must be >= 0 (0 = one per CPU), was " + carriers);
            }
            this.carriersPerNode = carriers;
            return this;
        }

        /** Lookups per carrier between two {@code getcpu} calls of the fallback locator; default 1024. */
        public Builder nodeRefreshEvery(int lookups) {
            if (lookups < 1) {
                throw new IllegalArgumentException("node refresh must be >= 1 lookup, was " + lookups);
            }
            this.nodeRefreshEvery = lookups;
            return this;
        }

        /** Detects (or takes) the topology, pins when asked, starts the schedulers. */
        public NumaSetup build() {
            return new NumaSetup(this);
        }
    }
}
