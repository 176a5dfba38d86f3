package dev.wordstats.service.metrics;

import dev.wordstats.service.counts.WordStore;
import dev.wordstats.service.numa.NumaRuntime;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.stereotype.Component;

/**
 * What each NUMA node did, read at scrape time from counters kept anyway (tag {@code node}: the
 * node index, bounded by the node count):
 * <ul>
 *   <li>{@code wordstats.node.requests}: HTTP requests served on the node (in per-node mode, on its
 *       scheduler's carriers; otherwise where the node lookup placed the request's thread);</li>
 *   <li>{@code wordstats.node.lock.acquisitions} (also tag {@code lock}): stripe lock
 *       acquisitions by threads on the node;</li>
 *   <li>{@code wordstats.node.carriers}: live carrier threads of the node's own scheduler (0 in
 *       default mode).</li>
 * </ul>
 * Prometheus names: {@code wordstats_node_requests_total}, {@code wordstats_node_lock_acquisitions_total},
 * {@code wordstats_node_carriers}.
 */
@Component
class NodeMetrics implements MeterBinder {

    private final NumaRuntime numa;
    private final WordStore store;

    NodeMetrics(NumaRuntime numa, WordStore store) {
        this.numa = numa;
        this.store = store;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        String lock = store.lockType().name();
        for (int n = 0; n < numa.topology().nodeCount(); n++) {
            int node = n;
            String tag = String.valueOf(node);
            FunctionCounter.builder("wordstats.node.requests", numa, r -> r.requestsServed(node))
                    .description("HTTP requests served on each NUMA node")
                    .tag("node", tag)
                    .register(registry);
            FunctionCounter.builder("wordstats.node.lock.acquisitions", store, s -> {
                        long[] byNode = s.lockAcquisitionsByNode();
                        return node < byNode.length ? byNode[node] : 0;
                    })
                    .description("Stripe lock acquisitions by threads on each NUMA node")
                    .tags("lock", lock, "node", tag)
                    .register(registry);
            Gauge.builder(
                            "wordstats.node.carriers",
                            numa,
                            r -> r.schedulers().node(node).carriers().size())
                    .description(
                            "Live carrier threads of each node's own virtual-thread scheduler (0: default scheduler)")
                    .tag("node", tag)
                    .register(registry);
        }
    }
}
