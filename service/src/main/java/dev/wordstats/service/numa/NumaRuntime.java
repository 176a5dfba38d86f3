package dev.wordstats.service.numa;

import dev.wordstats.numa.carrier.PinningReport;
import dev.wordstats.numa.scheduler.NodeSchedulers;
import dev.wordstats.numa.setup.NumaSetup;
import dev.wordstats.numa.topology.NodeLocator;
import dev.wordstats.numa.topology.Topology;
import dev.wordstats.service.WordstatsProperties;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import org.springframework.boot.thread.Threading;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The machine as the service sees it: a Spring bean around the library's {@link NumaSetup}, built
 * once at startup from {@code wordstats.numa.*} (topology, simulated nodes, carrier pinning,
 * scheduler, node refresh), plus whether requests run on virtual or platform threads and how many
 * requests each node served. Closing the context stops the per-node carriers.
 */
@Component
public class NumaRuntime implements AutoCloseable {

    private final NumaSetup setup;
    private final boolean virtualThreads;
    private final LongAdder[] requestsByNode; // one per node, added to by NodeRequestCounting

    public NumaRuntime(WordstatsProperties properties, Environment environment) {
        WordstatsProperties.Numa numa = properties.numa();
        Topology detected = Topology.detect();
        int simulated = numa.simulatedNodes();
        if (simulated > detected.cpuCount()) {
            throw new IllegalArgumentException("wordstats.numa.simulated-nodes must be from 0 (real topology) to the "
                    + detected.cpuCount() + " CPUs this process may use, was " + simulated);
        }
        this.setup = NumaSetup.builder()
                .topology(detected)
                .simulatedNodes(simulated)
                .pinCarriers(numa.pinCarriers())
                .scheduler(numa.scheduler())
                .nodeRefreshEvery(numa.nodeRefreshEvery())
                .build();
        this.virtualThreads = Threading.VIRTUAL.isActive(environment);
        this.requestsByNode = new LongAdder[setup.topology().nodeCount()];
        for (int i = 0; i < requestsByNode.length; i++) {
            requestsByNode[i] = new LongAdder();
        }
    }

    public Topology topology() {
        return setup.topology();
    }

    /** The node locator for the stripe locks (from the scheduler in per-node mode). */
    public NodeLocator nodeLocator() {
        return setup.locator();
    }

    /** Whether the per-carrier node cache is active (false when the JVM flags are missing). */
    public boolean carrierLocal() {
        return setup.carrierLocal();
    }

    /** The carrier pinning report, empty when pinning is off. */
    public Optional<PinningReport> pinning() {
        return setup.pinning();
    }

    /** The per-node virtual-thread schedulers (every node on the default scheduler in default mode). */
    public NodeSchedulers schedulers() {
        return setup.schedulers();
    }

    /** Whether requests are started on a node's own scheduler: per-node mode in effect and virtual request threads. */
    public boolean nodeAffineRequests() {
        return virtualThreads && setup.schedulers().perNode();
    }

    /** {@code virtual} or {@code platform}: the kind of thread requests run on. */
    public String threadKind() {
        return virtualThreads ? "virtual" : "platform";
    }

    /** One line on the nodes: how many, real or simulated, and from where. */
    public String nodesSummary() {
        return setup.nodesSummary();
    }

    /** One line on carrier pinning. */
    public String pinningSummary() {
        return setup.pinningSummary();
    }

    /** One line on the JDK's virtual-thread unblocker: raised above real-time carriers, or left as is. */
    public String unblockerSummary() {
        return setup.unblockerSummary();
    }

    /** One line on the virtual-thread scheduler in effect (and why, when per-node fell back). */
    public String schedulerSummary() {
        String summary = setup.schedulerSummary();
        return setup.schedulers().perNode() && !virtualThreads
                ? summary + ", unused by requests (platform request threads)"
                : summary;
    }

    /** Counts one request served on {@code node}. */
    void requestServed(int node) {
        requestsByNode[node].increment();
    }

    /** Requests served on {@code node} so far. */
    public long requestsServed(int node) {
        return requestsByNode[node].sum();
    }

    @Override
    public void close() {
        setup.close();
    }
}
