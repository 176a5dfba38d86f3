package dev.wordstats.numa.os;

/**
 * Where the calling thread ran during a {@code getcpu} call.
 *
 * @param cpu  the OS CPU number, or -1 when unknown (native calls unavailable)
 * @param node the kernel's NUMA node id (not a dense index), 0 when unknown
 */
public record CpuLocation(int cpu, int node) {}
