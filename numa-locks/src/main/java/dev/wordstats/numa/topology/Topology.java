package dev.wordstats.numa.topology;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;

/**
 * The CPUs this process may run on and how they group into NUMA nodes, packages (sockets),
 * clusters and cores, with the node distance matrix. Immutable and thread-safe.
 *
 * <p>Read from a sysfs {@code devices/system} tree ({@link #fromSysfs}, {@link #detect}; the
 * reading and checking is done by {@code TopologyLoader} and {@code SysfsReader}) and intersected
 * with the CPUs the process is allowed to use (its affinity mask: a container's cpuset,
 * {@code taskset}, {@code numactl --cpunodebind}).
 *
 * <p><b>Dense nodes.</b> Nodes without any allowed CPU (memory-only nodes, or nodes outside the
 * cpuset) are dropped, and the rest are numbered {@code 0..nodeCount()-1} in ascending OS id
 * order: {@link Cpu#node()}, {@link #nodeOfCpu}, {@link #distance} and locks all use the dense
 * index; {@link NumaNode#osId()} keeps the kernel's id (for {@code numactl}).
 *
 * <p><b>Simulated nodes.</b> {@link #withSimulatedNodes} splits the allowed CPUs into N contiguous
 * groups, so multi-node code paths run on a one-node host.
 */
public final class Topology {

    /** The default sysfs root read by {@link #detect()}. */
    public static final Path SYSFS_ROOT = Path.of("/sys/devices/system");

    static final int LOCAL_DISTANCE = 10;
    static final int SIMULATED_REMOTE_DISTANCE = 20;

    private final List<NumaNode> nodes;
    private final List<Cpu> cpus;
    private final int[] nodeByCpu; // index: cpu id; -1 where the CPU is not in this topology
    private final Map<Integer, List<Integer>> siblings;
    private final boolean simulated;
    private final String source;

    Topology(
            List<NumaNode> nodes,
            List<Cpu> cpus,
            Map<Integer, List<Integer>> siblings,
            boolean simulated,
            String source) {
        this.nodes = List.copyOf(nodes);
        this.cpus = List.copyOf(cpus);
        this.siblings = Map.copyOf(siblings);
        this.simulated = simulated;
        this.source = source;
        int maxCpu = cpus.stream().mapToInt(Cpu::id).max().orElseThrow();
        this.nodeByCpu = new int[maxCpu + 1];
        Arrays.fill(nodeByCpu, -1);
        for (Cpu cpu : cpus) {
            nodeByCpu[cpu.id()] = cpu.node();
        }
    }

    /**
     * The topology of this machine: {@code /sys/devices/system} intersected with the process
     * affinity. The affinity is read from {@code /proc/self/status} ({@code Cpus_allowed_list}, the
     * process's main thread, so a call from a pinned carrier still sees the whole process mask),
     * else from {@code sched_getaffinity} of the calling thread. Never throws: without a readable
     * sysfs the result is one node of the allowed CPUs (or of {@code availableProcessors()} CPUs
     * numbered from 0), and {@link #source()} says why.
     */
    public static Topology detect() {
        return TopologyLoader.detect();
    }

    /**
     * Reads a sysfs tree.
     *
     * @param systemRoot        the {@code devices/system} folder (holding {@code cpu/} and {@code node/})
     * @param allowedCpusOrNull the CPUs the process may use, or null to take every online CPU
     * @throws UncheckedIOException     when a required file is missing or unreadable (the message names it)
     * @throws IllegalArgumentException when a file is malformed, or no online CPU is allowed
     */
    public static Topology fromSysfs(Path systemRoot, BitSet allowedCpusOrNull) {
        return TopologyLoader.load(systemRoot, allowedCpusOrNull);
    }

    /** One node of CPUs {@code 0..cpus-1}, no package, cluster or core information. */
    public static Topology singleNode(int cpus) {
        if (cpus < 1) {
            throw new IllegalArgumentException("a topology needs at least 1 CPU, was " + cpus);
        }
        return singleNodeOf(range(cpus), "single node of " + cpus + " CPUs");
    }

    static Topology singleNodeOf(BitSet cpuSet, String source) {
        List<Cpu> cpus = new ArrayList<>();
        Map<Integer, List<Integer>> siblings = new HashMap<>();
        for (int cpu = cpuSet.nextSetBit(0); cpu >= 0; cpu = cpuSet.nextSetBit(cpu + 1)) {
            cpus.add(new Cpu(cpu, 0, -1, -1, -1));
            siblings.put(cpu, List.of(cpu));
        }
        NumaNode node = new NumaNode(0, 0, toList(cpuSet), List.of(LOCAL_DISTANCE));
        return new Topology(List.of(node), cpus, siblings, false, source);
    }

    /**
     * This topology's CPUs split into {@code nodes} simulated nodes: ascending CPU ids cut into
     * contiguous groups whose sizes differ by at most one (the first groups take the extra CPU).
     * Distances are synthesized: 10 local, 20 remote. Package, cluster and core ids are kept.
     *
     * @throws IllegalArgumentException unless {@code 1 <= nodes <= cpuCount()}
     */
    public Topology withSimulatedNodes(int nodes) {
        if (nodes < 1 || nodes > cpus.size()) {
            throw new IllegalArgumentException("simulated NUMA nodes must be between 1 and " + cpus.size()
                    + " (the number of allowed CPUs: " + CpuList.format(cpuIds()) + "), was " + nodes);
        }
        List<NumaNode> simNodes = new ArrayList<>();
        List<Cpu> simCpus = new ArrayList<>();
        int base = cpus.size() / nodes;
        int extra = cpus.size() % nodes;
        int next = 0;
        for (int n = 0; n < nodes; n++) {
            int size = base + (n < extra ? 1 : 0);
            List<Integer> ids = new ArrayList<>();
            for (Cpu cpu : cpus.subList(next, next + size)) {
                ids.add(cpu.id());
                simCpus.add(new Cpu(cpu.id(), n, cpu.packageId(), cpu.clusterId(), cpu.coreId()));
            }
            next += size;
            List<Integer> distances = new ArrayList<>();
            for (int to = 0; to < nodes; to++) {
                distances.add(to == n ? LOCAL_DISTANCE : SIMULATED_REMOTE_DISTANCE);
            }
            simNodes.add(new NumaNode(n, n, ids, distances));
        }
        String simSource = "simulated " + nodes + " node" + (nodes == 1 ? "" : "s") + " over " + source;
        return new Topology(simNodes, simCpus, siblings, true, simSource);
    }

    /** The nodes, by dense index. */
    public List<NumaNode> nodes() {
        return nodes;
    }

    /** The number of nodes, at least 1. */
    public int nodeCount() {
        return nodes.size();
    }

    /** The allowed CPUs, ascending by id. */
    public List<Cpu> cpus() {
        return cpus;
    }

    /** The number of allowed CPUs, at least 1. */
    public int cpuCount() {
        return cpus.size();
    }

    /** The allowed CPU ids as a set. */
    public BitSet cpuIds() {
        BitSet set = new BitSet();
        cpus.forEach(cpu -> set.set(cpu.id()));
        return set;
    }

    /** Whether {@code cpuId} is one of the allowed CPUs. */
    public boolean containsCpu(int cpuId) {
        return cpuId >= 0 && cpuId < nodeByCpu.length && nodeByCpu[cpuId] >= 0;
    }

    /**
     * The dense node index of a CPU.
     *
     * @throws IllegalArgumentException when the CPU is not one of the allowed CPUs
     */
    public int nodeOfCpu(int cpuId) {
        if (!containsCpu(cpuId)) {
            throw new IllegalArgumentException(
                    "cpu " + cpuId + " is not in this topology (cpus " + CpuList.format(cpuIds()) + ")");
        }
        return nodeByCpu[cpuId];
    }

    /**
     * The CPU of that id.
     *
     * @throws IllegalArgumentException when the CPU is not one of the allowed CPUs
     */
    public Cpu cpu(int cpuId) {
        int node = nodeOfCpu(cpuId);
        return cpus.stream()
                .filter(c -> c.id() == cpuId)
                .findFirst()
                .orElseThrow(() ->
                        new IllegalStateException("cpu " + cpuId + " mapped to node " + node + " but not listed"));
    }

    /**
     * The allowed SMT siblings of a CPU (those sharing its core, itself included), ascending; just
     * the CPU itself when the kernel does not say.
     *
     * @throws IllegalArgumentException when the CPU is not one of the allowed CPUs
     */
    public List<Integer> threadSiblings(int cpuId) {
        nodeOfCpu(cpuId);
        return siblings.get(cpuId);
    }

    /**
     * The distance between two nodes by dense index (10 = local, as in ACPI SLIT and {@code numactl -H}).
     *
     * @throws IndexOutOfBoundsException when a node index is out of range
     */
    public int distance(int fromNode, int toNode) {
        Objects.checkIndex(fromNode, nodes.size());
        Objects.checkIndex(toNode, nodes.size());
        return nodes.get(fromNode).distances().get(toNode);
    }

    /** The number of distinct known packages (sockets) among the allowed CPUs, 0 if unknown. */
    public int packageCount() {
        Set<Integer> ids = new HashSet<>();
        cpus.stream().filter(c -> c.packageId() >= 0).forEach(c -> ids.add(c.packageId()));
        return ids.size();
    }

    /** The number of distinct known clusters (package, cluster id) among the allowed CPUs, 0 if unknown. */
    public int clusterCount() {
        Set<List<Integer>> ids = new HashSet<>();
        cpus.stream().filter(c -> c.clusterId() >= 0).forEach(c -> ids.add(List.of(c.packageId(), c.clusterId())));
        return ids.size();
    }

    /** Whether the nodes are simulated ({@link #withSimulatedNodes}) rather than the machine's. */
    public boolean simulated() {
        return simulated;
    }

    /** Where the topology came from, e.g. {@code "sysfs /sys/devices/system ∩ affinity 0-1"}. */
    public String source() {
        return source;
    }

    /**
     * One line for a startup log, e.g.
     * {@code "2 CPUs in 1 node [node0=0-1], 1 package, distances [10]; source: sysfs /sys/devices/system ∩
     * affinity 0-1"}.
     */
    public String summary() {
        StringBuilder out = new StringBuilder();
        out.append(cpus.size())
                .append(cpus.size() == 1 ? " CPU in " : " CPUs in ")
                .append(nodes.size())
                .append(simulated ? " simulated" : "")
                .append(nodes.size() == 1 ? " node [" : " nodes [");
        StringJoiner nodeList = new StringJoiner(" ");
        for (NumaNode node : nodes) {
            nodeList.add("node" + node.index() + (node.osId() != node.index() ? "(os " + node.osId() + ")" : "") + "="
                    + CpuList.format(node.cpus()));
        }
        out.append(nodeList).append(']');
        int packages = packageCount();
        if (packages > 0) {
            out.append(", ").append(packages).append(packages == 1 ? " package" : " packages");
        }
        int clusters = clusterCount();
        if (clusters > 0) {
            out.append(", ").append(clusters).append(clusters == 1 ? " cluster" : " clusters");
        }
        StringJoiner rows = new StringJoiner("|", "[", "]");
        for (NumaNode node : nodes) {
            StringJoiner row = new StringJoiner(" ");
            node.distances().forEach(d -> row.add(Integer.toString(d)));
            rows.add(row.toString());
        }
        out.append(", distances ").append(rows).append("; source: ").append(source);
        return out.toString();
    }

    @Override
    public String toString() {
        return "Topology[" + summary() + "]";
    }

    private static BitSet range(int n) {
        BitSet set = new BitSet();
        set.set(0, n);
        return set;
    }

    static List<Integer> toList(BitSet set) {
        List<Integer> list = new ArrayList<>(set.cardinality());
        set.stream().forEach(list::add);
        return Collections.unmodifiableList(list);
    }
}
