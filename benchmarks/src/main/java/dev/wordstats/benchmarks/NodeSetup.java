package dev.wordstats.benchmarks;

import dev.wordstats.numa.carrier.CarrierNodeLocator;
import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.carrier.PinningReport;
import dev.wordstats.numa.topology.Topology;

/**
 * The node locator a benchmark hands to its locks: the real topology ({@link Topology#detect()}), or
 * that topology split into {@code simulatedNodes} virtual nodes, with the virtual-thread carriers
 * pinned to CPUs first when asked, so each carrier's cached node is exact.
 *
 * @param topology the topology the locator answers for
 * @param locator the per-carrier cached locator
 * @param pinning what {@link CarrierPinning#pinCarriers} reported, or {@code null} when not pinned
 */
public record NodeSetup(Topology topology, CarrierNodeLocator locator, PinningReport pinning) {

    /**
     * Detects the topology, applies {@code simulatedNodes} (0 = the real nodes), pins the carriers
     * when {@code pin} is set, and prints both to standard output (JMH shows it in the run log).
     */
    public static NodeSetup create(int simulatedNodes, boolean pin) {
        Topology topology = Topology.detect();
        if (simulatedNodes > 0) {
            topology = topology.withSimulatedNodes(simulatedNodes);
        }
        PinningReport report = pin ? CarrierPinning.pinCarriers(topology) : null;
        CarrierNodeLocator locator = CarrierNodeLocator.create(topology);
        System.out.println("# topology: " + topology.summary());
        System.out.println("# carriers: " + (report == null ? "not pinned" : report.summary()));
        return new NodeSetup(topology, locator, report);
    }
}
