package dev.wordstats.service.numa;

import dev.wordstats.numa.carrier.PinningReport;
import dev.wordstats.numa.scheduler.NodeSchedulers;
import dev.wordstats.numa.topology.Topology;
import io.swagger.v3.oas.annotations.Operation;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /api/topology}: the NUMA nodes, CPUs and distances this instance sees, its carrier pinning,
 * and its virtual-thread scheduler (mode, carriers per node, requests each node served).
 */
@RestController
class TopologyController {

    private final NumaRuntime numa;

    TopologyController(NumaRuntime numa) {
        this.numa = numa;
    }

    record Node(int index, int osId, List<Integer> cpus, List<Integer> distances) {}

    record Cpu(int id, int node, int packageId, int clusterId, int coreId) {}

    record Pin(String carrier, int cpu, int node, boolean verified) {}

    record Pinning(boolean enabled, boolean complete, String detail, List<Pin> pins) {}

    record Carrier(String name, List<Integer> cpus, boolean pinned, String failure) {}

    record NodeScheduler(
            int node, List<Integer> cpus, long requestsServed, long threadsStarted, List<Carrier> carriers) {}

    record Scheduler(
            String requested, String active, String fallbackReason, String summary, List<NodeScheduler> nodes) {}

    record TopologyView(
            String source,
            boolean simulated,
            String summary,
            int nodeCount,
            int cpuCount,
            List<Node> nodes,
            List<Cpu> cpus,
            boolean carrierLocal,
            Pinning carrierPinning,
            Scheduler scheduler) {}

    @Operation(
            summary = "NUMA nodes, CPUs, node distances, the carrier pinning report, and the virtual-thread"
                    + " scheduler: its carriers per node and the requests each node served")
    @GetMapping("/api/topology")
    TopologyView topology() {
        Topology topology = numa.topology();
        List<Node> nodes = topology.nodes().stream()
                .map(n -> new Node(n.index(), n.osId(), n.cpus(), n.distances()))
                .toList();
        List<Cpu> cpus = topology.cpus().stream()
                .map(c -> new Cpu(c.id(), c.node(), c.packageId(), c.clusterId(), c.coreId()))
                .toList();
        Pinning pinning = numa.pinning()
                .map(TopologyController::pinning)
                .orElse(new Pinning(false, false, "carrier pinning is off (wordstats.numa.pin-carriers)", List.of()));
        return new TopologyView(
                topology.source(),
                topology.simulated(),
                topology.summary(),
                topology.nodeCount(),
                topology.cpuCount(),
                nodes,
                cpus,
                numa.carrierLocal(),
                pinning,
                scheduler());
    }

    private Scheduler scheduler() {
        NodeSchedulers schedulers = numa.schedulers();
        List<NodeScheduler> nodes = schedulers.nodes().stream()
                .map(n -> new NodeScheduler(
                        n.node(),
                        n.cpus().stream().boxed().toList(),
                        numa.requestsServed(n.node()),
                        n.threadsStarted(),
                        n.carriers().stream()
                                .map(c -> new Carrier(c.name(), c.cpus(), c.pinned(), c.failure()))
                                .toList()))
                .toList();
        return new Scheduler(
                schedulers.requestedMode().label(),
                schedulers.activeMode().label(),
                schedulers.fallbackReason(),
                numa.schedulerSummary(),
                nodes);
    }

    private static Pinning pinning(PinningReport report) {
        return new Pinning(
                true,
                report.complete(),
                report.detail(),
                report.pins().stream()
                        .map(p -> new Pin(p.carrier(), p.cpu(), p.node(), p.verified()))
                        .toList());
    }
}
