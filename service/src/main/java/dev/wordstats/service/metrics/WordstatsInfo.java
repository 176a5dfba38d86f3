package dev.wordstats.service.metrics;

import dev.wordstats.service.WordstatsProperties;
import dev.wordstats.service.numa.NumaRuntime;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.stereotype.Component;

/**
 * {@code wordstats.info} (Prometheus {@code wordstats_info}): a gauge of value 1 whose tags say how
 * this instance is set up, so a dashboard can show it and mark when it changes (a restart with
 * another lock): {@code lock}, {@code stripes}, {@code nodes} (the NUMA nodes the locks see, real or
 * simulated), {@code simulated} ({@code true|false}), {@code scheduler} (the virtual-thread
 * scheduler the requests run on, {@code default|per-node}) and {@code reserve_after} (the reservation
 * threshold of the NUMA locks, ISO-8601).
 */
@Component
class WordstatsInfo implements MeterBinder {

    private final WordstatsProperties properties;
    private final NumaRuntime numa;

    WordstatsInfo(WordstatsProperties properties, NumaRuntime numa) {
        this.properties = properties;
        this.numa = numa;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("wordstats.info", () -> 1)
                .description("How this instance is set up (value always 1): lock type, stripes, NUMA nodes,"
                        + " virtual-thread scheduler, reservation threshold")
                .tag("lock", properties.lock().type().name())
                .tag("stripes", Integer.toString(properties.lock().stripes()))
                .tag("nodes", Integer.toString(numa.topology().nodeCount()))
                .tag("simulated", Boolean.toString(numa.topology().simulated()))
                // the scheduler in effect: per-node only when it started and requests use it
                .tag("scheduler", numa.nodeAffineRequests() ? "per-node" : "default")
                .tag("reserve_after", properties.lock().reserveAfter().toString())
                .register(registry);
    }
}
