package dev.wordstats.numa.carrier;

/**
 * One carrier thread pinned to one CPU.
 *
 * @param carrier  the carrier thread's name, e.g. {@code "ForkJoinPool-1-worker-1"}
 * @param cpu      the CPU it is pinned to
 * @param node     the dense node index of that CPU in the topology used
 * @param verified whether the carrier's affinity, read back after the pinning, is exactly that CPU
 */
public record CarrierPin(String carrier, int cpu, int node, boolean verified) {}
