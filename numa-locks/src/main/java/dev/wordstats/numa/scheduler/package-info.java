/**
 * Node-affine virtual threads: {@link dev.wordstats.numa.scheduler.NodeSchedulers} gives each
 * (real or simulated) NUMA node a virtual-thread scheduler of its own, whose carriers are pinned
 * to the node's CPUs, so a virtual thread started on node k runs only on node k and its node
 * lookup is exact and cheap. {@link dev.wordstats.numa.scheduler.CustomScheduler} is the only
 * class that reaches the JDK-internal builder this needs ({@code --add-opens
 * java.base/java.lang=ALL-UNNAMED}); without it everything falls back to the default scheduler.
 */
package dev.wordstats.numa.scheduler;
