package dev.wordstats.numa.topology;

import dev.wordstats.numa.os.LinuxNative;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Builds a {@link Topology} from a sysfs {@code devices/system} tree ({@link SysfsReader} reads the
 * files) intersected with the CPUs the process may use, and finds that affinity for
 * {@link Topology#detect()}. The checks and the dense numbering live here; {@link Topology} is only
 * the model.
 */
final class TopologyLoader {

    private final Path systemRoot;
    private final SysfsReader.Raw raw;
    private final BitSet usable;

    private TopologyLoader(Path systemRoot, SysfsReader.Raw raw, BitSet usable) {
        this.systemRoot = systemRoot;
        this.raw = raw;
        this.usable = usable;
    }

    /** {@link Topology#SYSFS_ROOT} intersected with {@link #processAffinity()}; see {@link Topology#detect()}. */
    static Topology detect() {
        return detect(Topology.SYSFS_ROOT, processAffinity());
    }

    /**
     * {@link #load} of that tree, or, when it fails, one node of the allowed CPUs (else of
     * {@code availableProcessors()} CPUs numbered from 0) whose {@link Topology#source()} says why.
     * Never throws.
     */
    static Topology detect(Path root, BitSet allowed) {
        try {
            return load(root, allowed);
        } catch (RuntimeException e) {
            String reason = e.getMessage();
            if (allowed != null && !allowed.isEmpty()) {
                return Topology.singleNodeOf(
                        allowed,
                        "fallback: one node of the allowed CPUs " + CpuList.format(allowed) + " (" + reason + ")");
            }
            int n = Runtime.getRuntime().availableProcessors();
            BitSet all = new BitSet();
            all.set(0, n);
            return Topology.singleNodeOf(
                    all, "fallback: one node of " + n + " CPUs from availableProcessors() (" + reason + ")");
        }
    }

    /** See {@link Topology#fromSysfs}. */
    static Topology load(Path systemRoot, BitSet allowedCpusOrNull) {
        Objects.requireNonNull(systemRoot, "systemRoot");
        SysfsReader.Raw raw = new SysfsReader(systemRoot).read(allowedCpusOrNull);
        BitSet usable = (BitSet) raw.online().clone();
        if (allowedCpusOrNull != null) {
            usable.and(allowedCpusOrNull);
        }
        if (usable.isEmpty()) {
            throw new IllegalArgumentException("no CPU is both online (" + CpuList.format(raw.online())
                    + ") and allowed (" + CpuList.format(allowedCpusOrNull) + ") in " + systemRoot);
        }
        String source = "sysfs " + systemRoot
                + (allowedCpusOrNull == null ? "" : " ∩ affinity " + CpuList.format(allowedCpusOrNull));
        return new TopologyLoader(systemRoot, raw, usable).build(source);
    }

    private Topology build(String source) {
        List<SysfsReader.RawNode> rawNodes = raw.nodes();
        if (rawNodes.isEmpty()) { // kernel without NUMA: one node holding every CPU
            rawNodes = List.of(new SysfsReader.RawNode(0, raw.online(), new int[] {Topology.LOCAL_DISTANCE}));
        }
        checkEachUsableCpuInOneNode(rawNodes);
        List<Integer> kept = nodesWithUsableCpus(rawNodes);
        List<NumaNode> nodes = new ArrayList<>();
        List<Cpu> cpus = new ArrayList<>();
        Map<Integer, List<Integer>> siblings = new HashMap<>();
        for (int dense = 0; dense < kept.size(); dense++) {
            SysfsReader.RawNode node = rawNodes.get(kept.get(dense));
            BitSet mine = usableOf(node.cpus());
            List<Integer> distances = new ArrayList<>();
            for (int position : kept) {
                distances.add(node.distances()[position]);
            }
            nodes.add(new NumaNode(dense, node.osId(), Topology.toList(mine), distances));
            for (int cpu = mine.nextSetBit(0); cpu >= 0; cpu = mine.nextSetBit(cpu + 1)) {
                SysfsReader.RawCpu info = raw.cpus().get(cpu);
                cpus.add(new Cpu(cpu, dense, info.packageId(), info.clusterId(), info.coreId()));
                siblings.put(cpu, Topology.toList(usableOf(info.siblings())));
            }
        }
        cpus.sort((a, b) -> Integer.compare(a.id(), b.id()));
        return new Topology(nodes, cpus, siblings, false, source);
    }

    /** Every usable CPU must be in exactly one node's cpulist. */
    private void checkEachUsableCpuInOneNode(List<SysfsReader.RawNode> rawNodes) {
        Map<Integer, Integer> osNodeOfCpu = new HashMap<>();
        for (SysfsReader.RawNode node : rawNodes) {
            BitSet mine = usableOf(node.cpus());
            for (int cpu = mine.nextSetBit(0); cpu >= 0; cpu = mine.nextSetBit(cpu + 1)) {
                Integer previous = osNodeOfCpu.put(cpu, node.osId());
                if (previous != null) {
                    throw new IllegalArgumentException("cpu " + cpu + " is in the cpulist of node " + previous
                            + " and of node " + node.osId() + " in " + systemRoot);
                }
            }
        }
        for (int cpu = usable.nextSetBit(0); cpu >= 0; cpu = usable.nextSetBit(cpu + 1)) {
            if (!osNodeOfCpu.containsKey(cpu)) {
                throw new IllegalArgumentException(
                        "cpu " + cpu + " is online and allowed but in no node's cpulist in " + systemRoot + "/node");
            }
        }
    }

    /**
     * The positions in {@code rawNodes} of the nodes that hold a usable CPU, ascending; a kept node's
     * dense index is its place in this list, and the positions index the distance rows.
     */
    private List<Integer> nodesWithUsableCpus(List<SysfsReader.RawNode> rawNodes) {
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < rawNodes.size(); i++) {
            if (!usableOf(rawNodes.get(i).cpus()).isEmpty()) {
                kept.add(i);
            }
        }
        return kept;
    }

    private BitSet usableOf(BitSet cpus) {
        BitSet mine = (BitSet) cpus.clone();
        mine.and(usable);
        return mine;
    }

    /**
     * The process's allowed CPUs: {@code Cpus_allowed_list} of {@code /proc/self/status} (the main
     * thread's mask, so a call from a pinned carrier still sees the whole process mask), else the
     * calling thread's {@code sched_getaffinity}, else null (unknown).
     */
    static BitSet processAffinity() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return CpuList.parse(line.substring("Cpus_allowed_list:".length()));
                }
            }
        } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
            // not Linux, or an unusual /proc: try the native call
        }
        try {
            if (LinuxNative.available()) {
                return LinuxNative.getAffinity();
            }
        } catch (RuntimeException | LinkageError e) {
            // JNA missing or broken: the affinity stays unknown
        }
        return null;
    }
}
