package dev.wordstats.loadtests.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Where a process of the comparison runs: anywhere (the default), on a set of CPUs, or on NUMA
 * nodes. Written {@code cpus:0-3,8}, {@code nodes:1} or empty. The process is started through
 * {@code numactl} when it is installed ({@code --physcpubind=CPUS}, or {@code --cpunodebind=N
 * --membind=N}, which also keeps its memory on the node) and through {@code taskset -c CPUS}
 * otherwise (for nodes, the nodes' CPUs from sysfs; memory then follows the kernel's first-touch
 * policy).
 *
 * @param kind what {@code value} names
 * @param value a CPU list or node list in the kernel's list format ({@code 0-3,8}); empty for ANY
 */
record Placement(Kind kind, String value) {

    enum Kind {
        ANY,
        CPUS,
        NODES
    }

    static final Placement ANY = new Placement(Kind.ANY, "");

    Placement {
        if (kind != Kind.ANY && !value.matches("\\d+(-\\d+)?(,\\d+(-\\d+)?)*")) {
            throw new IllegalArgumentException(
                    "a placement lists CPUs or nodes like 0-3,8; was '" + value + "' (" + kind + ")");
        }
    }

    /** Parses {@code cpus:LIST}, {@code nodes:LIST} (also {@code node:}, {@code cpu:}) or blank. */
    static Placement parse(String text) {
        String t = text == null ? "" : text.strip();
        if (t.isEmpty() || t.equalsIgnoreCase("any")) {
            return ANY;
        }
        int colon = t.indexOf(':');
        String kind = colon < 0 ? "" : t.substring(0, colon).strip().toLowerCase(Locale.ROOT);
        String list = colon < 0 ? "" : t.substring(colon + 1).strip();
        return switch (kind) {
            case "cpus", "cpu" -> new Placement(Kind.CPUS, list);
            case "nodes", "node" -> new Placement(Kind.NODES, list);
            default ->
                throw new IllegalArgumentException(
                        "a placement is cpus:LIST or nodes:LIST (e.g. cpus:0-3 or nodes:1), was '" + t + "'");
        };
    }

    /**
     * The words to put before a command so that it runs here: empty for ANY.
     *
     * @param numactl whether numactl is installed
     * @param nodeCpus a node list to the CPUs of those nodes (for taskset without numactl)
     */
    List<String> prefix(boolean numactl, Function<String, String> nodeCpus) {
        return switch (kind) {
            case ANY -> List.of();
            case CPUS -> numactl ? List.of("numactl", "--physcpubind=" + value) : List.of("taskset", "-c", value);
            case NODES ->
                numactl
                        ? List.of("numactl", "--cpunodebind=" + value, "--membind=" + value)
                        : List.of("taskset", "-c", nodeCpus.apply(value));
        };
    }

    /** {@link #prefix(boolean, Function)} for this machine. */
    List<String> prefix() {
        return prefix(onPath("numactl"), Placement::cpusOfNodes);
    }

    @Override
    public String toString() {
        return kind == Kind.ANY ? "any CPU" : kind.name().toLowerCase(Locale.ROOT) + ":" + value;
    }

    /** Whether an executable of this name is on the PATH. */
    static boolean onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                return true;
            }
        }
        return false;
    }

    /** The CPUs of the listed nodes, from /sys/devices/system/node/nodeN/cpulist. */
    static String cpusOfNodes(String nodes) {
        StringBuilder cpus = new StringBuilder();
        for (int node : expand(nodes)) {
            Path file = Path.of("/sys/devices/system/node", "node" + node, "cpulist");
            try {
                if (!cpus.isEmpty()) {
                    cpus.append(',');
                }
                cpus.append(Files.readString(file).strip());
            } catch (IOException e) {
                throw new IllegalStateException("no NUMA node " + node + " here (" + file + " unreadable)", e);
            }
        }
        return cpus.toString();
    }

    /** The numbers of a kernel list such as {@code 0-2,5}. */
    static List<Integer> expand(String list) {
        List<Integer> out = new java.util.ArrayList<>();
        for (String part : list.split(",")) {
            String[] range = part.strip().split("-");
            int from = Integer.parseInt(range[0]);
            int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
            for (int i = from; i <= to; i++) {
                out.add(i);
            }
        }
        return out;
    }
}
