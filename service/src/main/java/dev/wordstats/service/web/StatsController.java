package dev.wordstats.service.web;

import dev.wordstats.numa.topology.Topology;
import dev.wordstats.service.WordstatsProperties;
import dev.wordstats.service.counts.WordStore;
import dev.wordstats.service.numa.NumaRuntime;
import io.swagger.v3.oas.annotations.Operation;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code /api/stats}: what the service counted and how it runs. */
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

    @Operation(summary = "Totals, distinct words, lock type, stripes, topology summary, thread kind")
    @GetMapping(path = "/api/stats", produces = MediaType.APPLICATION_JSON_VALUE)
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
}
