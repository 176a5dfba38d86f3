package dev.wordstats.numa.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Reads the few files of a sysfs {@code devices/system} tree that {@link TopologyLoader} turns into a
 * {@link Topology}:
 * <pre>
 *   cpu/online                                   cpulist of online CPUs (required)
 *   cpu/cpuN/topology/physical_package_id        socket            (optional, else -1)
 *   cpu/cpuN/topology/cluster_id                 cluster           (optional, else -1)
 *   cpu/cpuN/topology/core_id                    core              (optional, else -1)
 *   cpu/cpuN/topology/thread_siblings_list       SMT siblings      (optional, else the CPU alone)
 *   node/online                                  node ids          (optional, else the nodeN folders)
 *   node/nodeN/cpulist                           CPUs of the node  (required per node)
 *   node/nodeN/distance                          one distance per node id, ascending (required per node)
 * </pre>
 * A tree without {@code node/} (a kernel without NUMA) reads as one node, id 0, distance 10.
 * Files are read only for CPUs that are online and allowed. Every failure names the file.
 */
final class SysfsReader {

    /** What the kernel's cluster_id holds when it knows no cluster: -1 (arm64), 0xFFFF (x86 BAD_APICID). */
    private static final int X86_NO_CLUSTER = 0xFFFF;

    private static final Pattern NODE_DIR = Pattern.compile("node(\\d+)");

    record RawCpu(int id, int packageId, int clusterId, int coreId, BitSet siblings) {}

    record RawNode(int osId, BitSet cpus, int[] distances) {}

    /** The tree's content: online CPUs, nodes by ascending OS id, and per-CPU data of usable CPUs. */
    record Raw(BitSet online, List<RawNode> nodes, Map<Integer, RawCpu> cpus) {}

    private final Path root;

    SysfsReader(Path root) {
        this.root = root;
    }

    /**
     * Reads the tree.
     *
     * @param allowed CPUs the process may use, or null for all; per-CPU files are read only for
     *                online CPUs in this set
     * @throws UncheckedIOException     when a required file is missing or unreadable
     * @throws IllegalArgumentException when a file's content is malformed
     */
    Raw read(BitSet allowed) {
        BitSet online = cpuList(root.resolve("cpu/online"));
        BitSet usable = (BitSet) online.clone();
        if (allowed != null) {
            usable.and(allowed);
        }
        List<RawNode> nodes = readNodes();
        Map<Integer, RawCpu> cpus = new HashMap<>();
        for (int cpu = usable.nextSetBit(0); cpu >= 0; cpu = usable.nextSetBit(cpu + 1)) {
            cpus.put(cpu, readCpu(cpu));
        }
        return new Raw(online, nodes, cpus);
    }

    private RawCpu readCpu(int cpu) {
        Path topo = root.resolve("cpu/cpu" + cpu + "/topology");
        int cluster = optionalInt(topo.resolve("cluster_id"));
        if (cluster == X86_NO_CLUSTER || cluster < 0) {
            cluster = -1;
        }
        int pkg = optionalInt(topo.resolve("physical_package_id"));
        int core = optionalInt(topo.resolve("core_id"));
        BitSet siblings;
        Path siblingsFile = topo.resolve("thread_siblings_list");
        if (Files.exists(siblingsFile)) {
            siblings = cpuList(siblingsFile);
            if (!siblings.get(cpu)) {
                throw malformed(siblingsFile, "does not contain cpu " + cpu + " itself");
            }
        } else {
            siblings = new BitSet();
            siblings.set(cpu);
        }
        return new RawCpu(cpu, pkg < 0 ? -1 : pkg, cluster, core < 0 ? -1 : core, siblings);
    }

    private List<RawNode> readNodes() {
        Path nodeDir = root.resolve("node");
        if (!Files.isDirectory(nodeDir)) {
            return List.of();
        }
        TreeSet<Integer> ids = new TreeSet<>();
        Path onlineFile = nodeDir.resolve("online");
        if (Files.exists(onlineFile)) {
            cpuList(onlineFile).stream().forEach(ids::add);
        } else {
            try (DirectoryStream<Path> dirs = Files.newDirectoryStream(nodeDir)) {
                for (Path dir : dirs) {
                    var m = NODE_DIR.matcher(dir.getFileName().toString());
                    if (m.matches() && Files.isDirectory(dir)) {
                        ids.add(Integer.parseInt(m.group(1)));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + nodeDir + ": " + e.getMessage(), e);
            }
        }
        if (ids.isEmpty()) {
            throw new UncheckedIOException(
                    new IOException(nodeDir + " lists no node (no node/online, no nodeN folder)"));
        }
        List<RawNode> nodes = new ArrayList<>();
        for (int id : ids) {
            Path dir = nodeDir.resolve("node" + id);
            BitSet cpus = cpuList(dir.resolve("cpulist"));
            int[] distances = distances(dir.resolve("distance"), ids.size());
            nodes.add(new RawNode(id, cpus, distances));
        }
        return nodes;
    }

    private int[] distances(Path file, int nodeCount) {
        String text = read(file).strip();
        String[] parts = text.isEmpty() ? new String[0] : text.split("\\s+");
        if (parts.length != nodeCount) {
            throw malformed(file, "has " + parts.length + " distances for " + nodeCount + " nodes: '" + text + "'");
        }
        int[] distances = new int[nodeCount];
        for (int i = 0; i < nodeCount; i++) {
            try {
                distances[i] = Integer.parseInt(parts[i]);
            } catch (NumberFormatException e) {
                throw malformed(file, "'" + parts[i] + "' is not a distance");
            }
            if (distances[i] <= 0) {
                throw malformed(file, "distance " + distances[i] + " is not positive");
            }
        }
        return distances;
    }

    private BitSet cpuList(Path file) {
        try {
            return CpuList.parse(read(file));
        } catch (IllegalArgumentException e) {
            throw malformed(file, e.getMessage());
        }
    }

    private int optionalInt(Path file) {
        if (!Files.exists(file)) {
            return -1;
        }
        String text = read(file).strip();
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw malformed(file, "'" + text + "' is not an integer");
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            throw new UncheckedIOException("missing sysfs file " + file, e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read sysfs file " + file + ": " + e, e);
        }
    }

    private static IllegalArgumentException malformed(Path file, String why) {
        return new IllegalArgumentException("malformed sysfs file " + file + ": " + why);
    }
}
