package dev.wordstats.loadtests.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;

/** The machine a comparison ran on, in one line for the report: CPU, CPUs, NUMA nodes, kernel, JDK. */
final class MachineInfo {

    private MachineInfo() {}

    static String summary() {
        return String.format(
                Locale.ROOT,
                "%s, %d CPUs, %d NUMA node(s), %s %s %s, JDK %s, numactl %s",
                cpuModel(),
                Runtime.getRuntime().availableProcessors(),
                numaNodes(),
                System.getProperty("os.name"),
                System.getProperty("os.version"),
                System.getProperty("os.arch"),
                System.getProperty("java.runtime.version"),
                Placement.onPath("numactl") ? "present" : "absent (taskset used for placement)");
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (IOException | RuntimeException e) {
            return "n/a";
        }
    }

    private static long numaNodes() {
        try (Stream<Path> nodes = Files.list(Path.of("/sys/devices/system/node"))) {
            return Math.max(
                    1,
                    nodes.filter(p -> p.getFileName().toString().matches("node\\d+"))
                            .count());
        } catch (IOException | RuntimeException e) {
            return 1;
        }
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).strip();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: the architecture will do
        }
        return System.getProperty("os.arch");
    }
}
