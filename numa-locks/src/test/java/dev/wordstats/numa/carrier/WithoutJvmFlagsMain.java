package dev.wordstats.numa.carrier;

import dev.wordstats.numa.topology.Topology;

/**
 * Run in a child JVM started without the library's JVM flags (no --add-exports, no --add-opens):
 * prints what the locator and the pinning do there, one {@code key=value} per line.
 */
public final class WithoutJvmFlagsMain {

    private WithoutJvmFlagsMain() {}

    public static void main(String[] args) throws Exception {
        Topology topology = Topology.detect();
        Topology nodes = topology.cpuCount() >= 2 ? topology.withSimulatedNodes(2) : topology;
        CarrierNodeLocator locator = CarrierNodeLocator.create(nodes);
        System.out.println("carrierLocal=" + locator.carrierLocal());
        int[] node = new int[1];
        Thread.ofVirtual().start(() -> node[0] = locator.currentNode()).join();
        System.out.println("nodeInRange=" + (node[0] >= 0 && node[0] < nodes.nodeCount()));
        PinningReport report = CarrierPinning.pinCarriers(nodes);
        System.out.println("pinningComplete=" + report.complete());
        System.out.println("pinning=" + report.summary());
    }
}
