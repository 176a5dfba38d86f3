/**
 * The machine's CPUs and NUMA nodes as the process may use them
 * ({@link dev.wordstats.numa.topology.Topology}, read from sysfs and the affinity mask, or
 * simulated), and the {@link dev.wordstats.numa.topology.NodeLocator} contract locks use to ask
 * which node the calling thread runs on. Node numbers in this API are dense indices
 * {@code 0..nodeCount()-1}; the kernel's ids are kept in {@link dev.wordstats.numa.topology.NumaNode#osId()}.
 *
 * <p>Types: {@code Topology} of {@link dev.wordstats.numa.topology.NumaNode}s and
 * {@link dev.wordstats.numa.topology.Cpu}s; {@link dev.wordstats.numa.topology.CpuList} (the kernel's
 * cpulist syntax); {@code NodeLocator}; package-private: {@code TopologyLoader} (checks, dense numbering,
 * the affinity) and {@code SysfsReader} (the sysfs files it reads).
 */
package dev.wordstats.numa.topology;
