/**
 * Node-affine virtual threads: {@link dev.wordstats.numa.scheduler.NodeSchedulers} gives each
 * (real or simulated) NUMA node a virtual-thread scheduler of its own, whose carriers are pinned
 * to the node's CPUs, so a virtual thread started on node k runs only on node k and its node
 * lookup is exact and cheap. {@link dev.wordstats.numa.scheduler.CustomScheduler} is the only
 * class that reaches the JDK-internal builder this needs ({@code --add-opens
 * java.base/java.lang=ALL-UNNAMED}); without it everything falls back to the default scheduler.
 *
 * <p>Types: {@code NodeSchedulers} (every node's scheduler, with its
 * {@link dev.wordstats.numa.scheduler.SchedulerMode} and {@link dev.wordstats.numa.scheduler.Placement}),
 * {@link dev.wordstats.numa.scheduler.NodeScheduler} (one node's) and
 * {@link dev.wordstats.numa.scheduler.CarrierInfo} (one of its carriers, as seen when asked);
 * {@code CustomScheduler}; {@link dev.wordstats.numa.scheduler.UnblockerPriority} (keeps the JDK's
 * unblocker thread ahead of real-time carriers); package-private: {@code NodeCarrierThread} (a carrier
 * pinned to its node) and {@code SchedulerNodeLocator} (the node of a thread as its scheduler knows it).
 */
package dev.wordstats.numa.scheduler;
