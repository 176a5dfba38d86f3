/**
 * One entry point for the NUMA set-up of a process: {@link dev.wordstats.numa.setup.NumaSetup}
 * detects or simulates the topology, pins carriers, starts the per-node virtual-thread schedulers
 * and builds the node locator. The service and the benchmarks use it.
 */
package dev.wordstats.numa.setup;
