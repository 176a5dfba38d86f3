package dev.wordstats.service.system;

import dev.wordstats.numa.topology.Topology;
import dev.wordstats.service.WordstatsProperties;
import dev.wordstats.service.counts.WordStore;
import dev.wordstats.service.numa.NumaRuntime;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * {@code /actuator/info} {@code wordstats}: how this instance runs (the lock, the virtual-thread
 * scheduler, the request threads, the topology and carrier pinning), beside the {@code build}
 * and {@code git} entries Spring Boot adds from the build. The same facts as the start-up line,
 * for a tool or a person that comes later.
 */
@Component
class RuntimeInfoContributor implements InfoContributor {

    private final WordStore store;
    private final NumaRuntime numa;
    private final WordstatsProperties properties;
    private final Environment environment;

    RuntimeInfoContributor(WordStore store, NumaRuntime numa, WordstatsProperties properties, Environment environment) {
        this.store = store;
        this.numa = numa;
        this.properties = properties;
        this.environment = environment;
    }

    @Override
    public void contribute(Info.Builder builder) {
        Map<String, Object> lock = new LinkedHashMap<>();
        lock.put("type", store.lockType().name());
        lock.put("stripes", store.stripes());
        lock.put("timing", properties.lock().timing());

        Topology topology = numa.topology();
        Map<String, Object> nodes = new LinkedHashMap<>();
        nodes.put("count", topology.nodeCount());
        nodes.put("simulated", topology.simulated());
        nodes.put("cpus", topology.cpuCount());
        nodes.put("summary", topology.summary());
        nodes.put("carrierLocalNodeCache", numa.carrierLocal());
        nodes.put("carrierPinning", numa.pinningSummary());

        Map<String, Object> wordstats = new LinkedHashMap<>();
        wordstats.put("lock", lock);
        // wordstats.numa.scheduler: default | per-node (read as text, so it shows whichever is set).
        wordstats.put("scheduler", environment.getProperty("wordstats.numa.scheduler", "default"));
        wordstats.put("requestThreads", numa.threadKind());
        wordstats.put("topology", nodes);
        builder.withDetail("wordstats", wordstats);
    }
}
