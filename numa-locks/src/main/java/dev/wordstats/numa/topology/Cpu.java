package dev.wordstats.numa.topology;

/**
 * One logical CPU that the process may run on.
 *
 * @param id        the OS CPU number (as in {@code /sys/devices/system/cpu/cpuN} and {@code getcpu})
 * @param node      the dense index of its NUMA node in {@link Topology#nodes()}, not the OS node id
 * @param packageId the socket ({@code topology/physical_package_id}), {@code -1} when unknown
 * @param clusterId the cluster of cores sharing an L2 or L3 tag (Arm CCL; {@code topology/cluster_id}),
 *                  {@code -1} when unknown (file missing, or the kernel's "no cluster" values -1/65535)
 * @param coreId    the physical core within the package ({@code topology/core_id}), {@code -1} when
 *                  unknown; SMT siblings share it
 */
public record Cpu(int id, int node, int packageId, int clusterId, int coreId) {

    /** Checks that the CPU number and the node index are not negative. */
    public Cpu {
        if (id < 0) {
            throw new IllegalArgumentException("cpu id must be >= 0, was " + id);
        }
        if (node < 0) {
            throw new IllegalArgumentException("node index of cpu " + id + " must be >= 0, was " + node);
        }
    }
}
