package dev.wordstats.numa.topology;

import java.util.List;

/**
 * One NUMA node that has at least one CPU the process may run on.
 *
 * @param index     the dense index, {@code 0 <= index < Topology.nodeCount()}; what locks use
 * @param osId      the kernel's node id ({@code /sys/devices/system/node/nodeN}); for a simulated
 *                  node the same as {@code index}
 * @param cpus      the allowed CPUs of the node, ascending, never empty
 * @param distances the distance to every node, indexed by dense index (ACPI SLIT units: 10 = local)
 */
public record NumaNode(int index, int osId, List<Integer> cpus, List<Integer> distances) {

    /** Copies the lists (immutable) and checks them. */
    public NumaNode {
        cpus = List.copyOf(cpus);
        distances = List.copyOf(distances);
        if (index < 0) {
            throw new IllegalArgumentException("node index must be >= 0, was " + index);
        }
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("node " + index + " (os node " + osId + ") has no CPU");
        }
    }
}
