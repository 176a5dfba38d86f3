package dev.wordstats.numa.topology;

import static dev.wordstats.numa.topology.Fixtures.KUNPENG_48;
import static dev.wordstats.numa.topology.Fixtures.LAPTOP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Broken or unusual trees: clear errors naming the file, or the documented defaults. */
@Timeout(30)
class MalformedSysfsTest {

    @TempDir
    Path tmp;

    private Path laptop() {
        return Fixtures.copy(LAPTOP, tmp.resolve("sys"));
    }

    @Test
    void malformedCpulistNamesFileAndElement() throws IOException {
        Path root = laptop();
        Files.writeString(root.resolve("node/node0/cpulist"), "0-x\n");

        assertThatIllegalArgumentException()
                .isThrownBy(() -> Topology.fromSysfs(root, null))
                .withMessageContaining("malformed sysfs file " + root.resolve("node/node0/cpulist"))
                .withMessageContaining("element '0-x'");
    }

    @Test
    void missingOnlineFileIsNamed() throws IOException {
        Path root = laptop();
        Files.delete(root.resolve("cpu/online"));

        assertThatThrownBy(() -> Topology.fromSysfs(root, null))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage("missing sysfs file " + root.resolve("cpu/online"));
    }

    @Test
    void distanceRowOfWrongLengthIsRejected() throws IOException {
        Path root = laptop();
        Files.writeString(root.resolve("node/node0/distance"), "10 20\n");

        assertThatIllegalArgumentException()
                .isThrownBy(() -> Topology.fromSysfs(root, null))
                .withMessageContaining("node0/distance: has 2 distances for 1 nodes");
    }

    @Test
    void nonNumericDistanceIsRejected() throws IOException {
        Path root = laptop();
        Files.writeString(root.resolve("node/node0/distance"), "ten\n");

        assertThatIllegalArgumentException()
                .isThrownBy(() -> Topology.fromSysfs(root, null))
                .withMessageContaining("'ten' is not a distance");
    }

    @Test
    void nonNumericCoreIdIsRejected() throws IOException {
        Path root = laptop();
        Files.writeString(root.resolve("cpu/cpu1/topology/core_id"), "one\n");

        assertThatIllegalArgumentException()
                .isThrownBy(() -> Topology.fromSysfs(root, null))
                .withMessageContaining("cpu1/topology/core_id: 'one' is not an integer");
    }

    @Test
    void onlineCpuInNoNodeIsRejected() throws IOException {
        Path root = laptop();
        Files.writeString(root.resolve("node/node0/cpulist"), "0\n");

        assertThatIllegalArgumentException()
                .isThrownBy(() -> Topology.fromSysfs(root, null))
                .withMessageContaining("cpu 1 is online and allowed but in no node's cpulist");
    }

    @Test
    void cpuInTwoNodesIsRejected() throws IOException {
        Path root = Fixtures.copy(KUNPENG_48, tmp.resolve("sys"));
        Files.writeString(root.resolve("node/node1/cpulist"), "23-47\n");

        assertThatIllegalArgumentException()
                .isThrownBy(() -> Topology.fromSysfs(root, null))
                .withMessageContaining("cpu 23 is in the cpulist of node 0 and of node 1");
    }

    @Test
    void missingOptionalFilesGiveUnknownIds() throws IOException {
        Path root = laptop();
        for (String file : new String[] {"physical_package_id", "cluster_id", "core_id", "thread_siblings_list"}) {
            Files.delete(root.resolve("cpu/cpu0/topology/" + file));
        }

        Topology t = Topology.fromSysfs(root, null);

        assertThat(t.cpu(0)).isEqualTo(new Cpu(0, 0, -1, -1, -1));
        assertThat(t.threadSiblings(0)).containsExactly(0);
    }

    @Test
    void treeWithoutNodeFolderIsOneNodeOfAllCpus() throws IOException {
        Path root = Fixtures.copy(KUNPENG_48, tmp.resolve("sys"));
        deleteTree(root.resolve("node"));

        Topology t = Topology.fromSysfs(root, null);

        assertThat(t.nodeCount()).isEqualTo(1);
        assertThat(t.cpuCount()).isEqualTo(48);
        assertThat(t.distance(0, 0)).isEqualTo(10);
    }

    @Test
    void withoutNodeOnlineTheNodeFoldersAreListed() throws IOException {
        Path root = Fixtures.copy(KUNPENG_48, tmp.resolve("sys"));
        Files.delete(root.resolve("node/online"));
        Files.createDirectories(root.resolve("node/power")); // not a node folder

        Topology t = Topology.fromSysfs(root, null);

        assertThat(t.nodes()).extracting(NumaNode::osId).containsExactly(0, 1);
    }

    @Test
    void memoryOnlyNodeIsDroppedAndItsDistanceColumnToo() throws IOException {
        Path root = Fixtures.copy(KUNPENG_48, tmp.resolve("sys"));
        Files.writeString(root.resolve("node/online"), "0-2\n");
        Files.writeString(root.resolve("node/node0/distance"), "10 15 30\n");
        Files.writeString(root.resolve("node/node1/distance"), "15 10 30\n");
        Files.createDirectories(root.resolve("node/node2"));
        Files.writeString(root.resolve("node/node2/cpulist"), "\n"); // e.g. CXL memory
        Files.writeString(root.resolve("node/node2/distance"), "30 30 10\n");

        Topology t = Topology.fromSysfs(root, null);

        assertThat(t.nodeCount()).isEqualTo(2);
        assertThat(t.nodes().get(1).distances()).containsExactly(15, 10);
    }

    @Test
    void detectFallsBackToOneNodeOfTheAllowedCpusAndSaysWhy() {
        Topology t = TopologyLoader.detect(tmp.resolve("no-such-sysfs"), Fixtures.cpus("2-5"));

        assertThat(t.nodeCount()).isEqualTo(1);
        assertThat(t.cpus()).extracting(Cpu::id).containsExactly(2, 3, 4, 5);
        assertThat(t.source()).startsWith("fallback: one node of the allowed CPUs 2-5 (missing sysfs file");
    }

    @Test
    void detectWithoutSysfsOrAffinityUsesAvailableProcessors() {
        Topology t = TopologyLoader.detect(tmp.resolve("no-such-sysfs"), null);

        assertThat(t.nodeCount()).isEqualTo(1);
        assertThat(t.cpuCount()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(t.source()).startsWith("fallback: one node of " + t.cpuCount() + " CPUs from availableProcessors()");
    }

    @Test
    void detectFallsBackOnAMalformedTreeToo() throws IOException {
        Path root = laptop();
        Files.writeString(root.resolve("cpu/online"), "garbage\n");

        Topology t = TopologyLoader.detect(root, null);

        assertThat(t.nodeCount()).isEqualTo(1);
        assertThat(t.source()).contains("malformed sysfs file").contains("garbage");
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
