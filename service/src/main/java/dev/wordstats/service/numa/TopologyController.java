package dev.wordstats.service.numa;

import dev.wordstats.numa.carrier.PinningReport;
import dev.wordstats.numa.topology.Topology;
import io.swagger.v3.oas.annotations.Operation;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code /api/topology}: the NUMA nodes, CPUs and distances this instance sees, and its carrier pinning. */
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

    record TopologyView(
            String source,
            boolean simulated,
            String summary,
            int nodeCount,
            int cpuCount,
            List<Node> nodes,
            List<Cpu> cpus,
            boolean carrierLocal,
            Pinning carrierPinning) {}

    @Operation(summary = "NUMA nodes, CPUs, node distances and the carrier pinning report")
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
                pinning);
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
