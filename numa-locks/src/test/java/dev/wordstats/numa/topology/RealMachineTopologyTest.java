package dev.wordstats.numa.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** {@link Topology#detect()} on the machine running the build. */
@EnabledOnOs(OS.LINUX)
@Timeout(30)
class RealMachineTopologyTest {

    @Test
    void detectReadsSysfsIntersectedWithTheProcessAffinity() throws IOException {
        String allowed = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(line -> line.startsWith("Cpus_allowed_list:"))
                .map(line -> line.substring("Cpus_allowed_list:".length()).strip())
                .findFirst()
                .orElseThrow();

        Topology t = Topology.detect();

        assertThat(t.source()).startsWith("sysfs /sys/devices/system ∩ affinity " + allowed);
        assertThat(t.cpuIds()).isEqualTo(CpuList.parse(allowed));
        assertThat(t.simulated()).isFalse();
        assertThat(t.nodeCount()).isBetween(1, t.cpuCount());
        assertThat(t.summary()).doesNotContain("\n").contains(t.cpuCount() + " CPU");
    }

    @Test
    void detectMatchesTheKernelNodeOfEveryCpu() throws IOException {
        Topology t = Topology.detect();

        for (NumaNode node : t.nodes()) {
            for (int cpu : node.cpus()) {
                assertThat(Files.exists(Path.of("/sys/devices/system/cpu/cpu" + cpu + "/node" + node.osId())))
                        .as("cpu%d is on os node %d", cpu, node.osId())
                        .isTrue();
            }
        }
    }
}
