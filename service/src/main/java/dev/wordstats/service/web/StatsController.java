package dev.wordstats.service.web;

import dev.wordstats.numa.carrier.PinningReport;
import dev.wordstats.numa.topology.Topology;
import dev.wordstats.service.WordstatsProperties;
import dev.wordstats.service.counts.WordStore;
import dev.wordstats.service.system.NumaRuntime;
import io.swagger.v3.oas.annotations.Operation;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** What the service counted and how it runs. */
@RestController
class StatsController {

    private final WordStore store;
    private final NumaRuntime numa;
    private final WordstatsProperties properties;

    StatsController(WordStore store, NumaRuntime numa, WordstatsProperties properties) {
        this.store = store;
        this.numa = numa;
        this.properties = properties;
    }

    /**
     * @param totalWords     the sum of all counts held now (0 after a clear)
     * @param wordsCounted   every word counted since startup, clears included
     * @param distinctWords  distinct words held now
     */
    record Stats(
            long totalWords,
            long wordsCounted,
            long distinctWords,
            long maxDistinctWords,
            String lockType,
            int stripes,
            boolean lockTiming,
            int nodes,
            boolean simulatedNodes,
            String topology,
            boolean carrierLocal,
            String carrierPinning,
            String threadKind) {}

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

    @Operation(summary = "Totals, distinct words, lock type, stripes, topology summary, thread kind")
    @GetMapping("/api/stats")
    Stats stats() {
        Topology topology = numa.topology();
        return new Stats(
                store.total(),
                store.wordsCounted(),
                store.distinct(),
                store.maxDistinct(),
                store.lockType().name(),
                store.stripes(),
                properties.lock().timing(),
                topology.nodeCount(),
                topology.simulated(),
                topology.summary(),
                numa.carrierLocal(),
                numa.pinningSummary(),
                numa.threadKind());
    }

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
                .map(StatsController::pinning)
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
