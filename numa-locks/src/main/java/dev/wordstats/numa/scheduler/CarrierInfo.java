package dev.wordstats.numa.scheduler;

import java.util.List;

/**
 * One carrier of a node's scheduler as seen when asked.
 *
 * @param name    the carrier thread's name, {@code wordstats-node<k>-carrier-<i>}
 * @param node    the node it belongs to
 * @param cpus    the CPUs its affinity allows, read back by the carrier after pinning itself
 * @param pinned  whether pinning succeeded and every allowed CPU is one of the node's
 * @param failure why pinning failed; empty when it did not
 */
public record CarrierInfo(String name, int node, List<Integer> cpus, boolean pinned, String failure) {

    public CarrierInfo {
        cpus = List.copyOf(cpus);
    }
}
