package dev.wordstats.numa.scheduler;

/**
 * How {@link NodeSchedulers} picks the node of a thread that does not ask for one.
 *
 * <p>{@link #ROUND_ROBIN} is the default: one shared counter increment per thread start, and an
 * even spread of thread starts whatever they do. {@link #LEAST_LOADED} reads every node's count of
 * running threads and picks the smallest (ties rotate), which evens out nodes whose threads live
 * for different times, at the price of an increment and a decrement of a per-node counter around
 * each thread and {@code nodes} reads per start. For short, alike requests both give the same
 * spread (see benchmarks/README, "Placement").
 */
public enum Placement {
    /** Node {@code i mod n} for the i-th thread. */
    ROUND_ROBIN,
    /** The node with the fewest live threads started through the placing factory. */
    LEAST_LOADED
}
