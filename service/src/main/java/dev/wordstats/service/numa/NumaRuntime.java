package dev.wordstats.service.numa;

import dev.wordstats.numa.carrier.CarrierNodeLocator;
import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.carrier.PinningReport;
import dev.wordstats.numa.topology.NodeLocator;
import dev.wordstats.numa.topology.Topology;
import dev.wordstats.service.WordstatsProperties;
import java.util.Optional;
import org.springframework.boot.thread.Threading;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The machine as the service sees it, set up once at startup: the NUMA topology (real, or the
 * allowed CPUs split into {@code wordstats.numa.simulated-nodes} simulated nodes), the node locator
 * the stripe locks ask, the carrier pinning report (when {@code wordstats.numa.pin-carriers}) and
 * whether requests run on virtual or platform threads.
 */
@Component
public class NumaRuntime {

    private final Topology topology;
    private final CarrierNodeLocator locator;
    private final PinningReport pinning; // null when pinning is off
    private final boolean virtualThreads;

    public NumaRuntime(WordstatsProperties properties, Environment environment) {
        WordstatsProperties.Numa numa = properties.numa();
        Topology detected = Topology.detect();
        int simulated = numa.simulatedNodes();
        if (simulated > detected.cpuCount()) {
            throw new IllegalArgumentException("wordstats.numa.simulated-nodes must be from 0 (real topology) to the "
                    + detected.cpuCount() + " CPUs this process may use, was " + simulated);
        }
        this.topology = simulated > 0 ? detected.withSimulatedNodes(simulated) : detected;
        this.locator = new CarrierNodeLocator(topology, numa.nodeRefreshEvery());
        this.pinning = numa.pinCarriers() ? CarrierPinning.pinCarriers(topology) : null;
        this.virtualThreads = Threading.VIRTUAL.isActive(environment);
    }

    public Topology topology() {
        return topology;
    }

    /** The node locator for the stripe locks. */
    public NodeLocator nodeLocator() {
        return locator;
    }

    /** Whether the per-carrier node cache is active (false when the JVM flags are missing). */
    public boolean carrierLocal() {
        return locator.carrierLocal();
    }

    /** The carrier pinning report, empty when pinning is off. */
    public Optional<PinningReport> pinning() {
        return Optional.ofNullable(pinning);
    }

    /** {@code virtual} or {@code platform}: the kind of thread requests run on. */
    public String threadKind() {
        return virtualThreads ? "virtual" : "platform";
    }

    /** One line on the nodes: how many, real or simulated, and from where. */
    public String nodesSummary() {
        return topology.nodeCount() + (topology.simulated() ? " simulated" : " real") + " (" + topology.summary() + ")";
    }

    /** One line on carrier pinning. */
    public String pinningSummary() {
        return pinning == null ? "off" : pinning.summary();
    }
}
