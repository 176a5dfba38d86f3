package dev.wordstats.benchmarks.runner;

import dev.wordstats.benchmarks.CpuTokens;
import dev.wordstats.numa.topology.Topology;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The machine a run measured: CPU model and count, the NUMA nodes with their CPUs and distances
 * (sysfs), the topology the locks see, kernel, JDK, {@code lscpu}, the load average and the
 * {@code consumeCPU} calibration. Every figure a report shows is read against it.
 */
final class MachineDescription {

    private MachineDescription() {}

    /** The description as JSON-friendly values, with a one-line {@code summary}. */
    static Map<String, Object> describe(Path sysNodes) {
        Map<String, Object> m = new LinkedHashMap<>();
        String cpu = cpuModel();
        int cpus = Runtime.getRuntime().availableProcessors();
        String jdk = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
        m.put("cpuModel", cpu);
        m.put("availableProcessors", cpus);
        m.put("kernel", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put(
                "os",
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"));
        m.put("jdk", jdk);
        String topology;
        try {
            topology = Topology.detect().summary();
        } catch (RuntimeException e) {
            topology = "unknown: " + e;
        }
        m.put("topology", topology);
        m.put("numaNodes", numaNodes(sysNodes));
        m.put("loadAverage", loadAverage());
        m.put("perf", PerfSupport.why().isEmpty() ? "usable" : PerfSupport.why());
        m.put("consumeCpuNanosPer1000Tokens", Math.round(CpuTokens.nanosFor(1000, 200) * 10) / 10.0);
        m.put(
                "summary",
                cpus + " CPUs, " + cpu + ", " + jdk + "; " + topology + "; consumeCPU(1000) = "
                        + m.get("consumeCpuNanosPer1000Tokens") + " ns");
        m.put("lscpu", run("lscpu"));
        return m;
    }

    static Map<String, Object> describe() {
        return describe(Path.of("/sys/devices/system/node"));
    }

    /** Each NUMA node of sysfs: its CPU list and its distance row. */
    static List<Map<String, String>> numaNodes(Path sysNodes) {
        List<Map<String, String>> nodes = new ArrayList<>();
        if (!Files.isDirectory(sysNodes)) {
            return nodes;
        }
        try (Stream<Path> list = Files.list(sysNodes)) {
            for (Path dir : list.filter(p -> p.getFileName().toString().matches("node\\d+"))
                    .sorted((a, b) -> Integer.compare(number(a), number(b)))
                    .toList()) {
                Map<String, String> node = new LinkedHashMap<>();
                node.put("node", Integer.toString(number(dir)));
                node.put("cpus", read(dir.resolve("cpulist")));
                node.put("distances", read(dir.resolve("distance")));
                nodes.add(node);
            }
        } catch (IOException e) {
            // no NUMA information: an empty list says so
        }
        return nodes;
    }

    /** The description as a Markdown section. */
    @SuppressWarnings("unchecked")
    static String markdown(Map<String, Object> m) {
        StringBuilder md = new StringBuilder("## Machine\n\n");
        md.append("- CPU: ")
                .append(m.get("cpuModel"))
                .append(", ")
                .append(m.get("availableProcessors"))
                .append(" CPUs available to the JVM\n");
        md.append("- Kernel: ").append(m.get("kernel")).append('\n');
        md.append("- JDK: ").append(m.get("jdk")).append('\n');
        md.append("- Topology the locks see: ").append(m.get("topology")).append('\n');
        md.append("- Load average: ").append(m.get("loadAverage")).append('\n');
        md.append("- perf: ").append(m.get("perf")).append('\n');
        md.append("- consumeCPU(1000 tokens) = ")
                .append(m.get("consumeCpuNanosPer1000Tokens"))
                .append(" ns\n");
        List<Map<String, String>> nodes = (List<Map<String, String>>) m.get("numaNodes");
        if (nodes != null && !nodes.isEmpty()) {
            md.append("\n| NUMA node | CPUs | distances |\n|---:|---|---|\n");
            for (Map<String, String> node : nodes) {
                md.append("| ")
                        .append(node.get("node"))
                        .append(" | ")
                        .append(node.get("cpus"))
                        .append(" | ")
                        .append(node.get("distances"))
                        .append(" |\n");
            }
        } else {
            md.append("\nNo NUMA nodes in sysfs.\n");
        }
        Object lscpu = m.get("lscpu");
        if (lscpu != null && !lscpu.toString().isBlank()) {
            md.append("\n<details><summary>lscpu</summary>\n\n```\n")
                    .append(lscpu.toString().strip())
                    .append("\n```\n\n</details>\n");
        }
        return md.toString();
    }

    static String loadAverage() {
        String text = read(Path.of("/proc/loadavg"));
        return text.isEmpty() ? "n/a" : text;
    }

    private static int number(Path nodeDir) {
        return Integer.parseInt(nodeDir.getFileName().toString().substring(4));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file).strip();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** A command's output, or empty when it is missing or fails. */
    static String run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                return "";
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through
        }
        return System.getProperty("os.arch");
    }
}
