package dev.wordstats.numa.os;

/**
 * A Linux thread's scheduling policy ({@code SCHED_OTHER}, {@code SCHED_FIFO}, {@code SCHED_RR}, ...) and
 * its static priority (1-99 for the real-time policies, 0 for the others), as {@code sched_getscheduler}
 * and {@code sched_getparam} report them.
 */
public record SchedulingPolicy(int policy, int priority) {

    /** The default time-sharing policy. */
    public static final int OTHER = 0;

    /** Real-time, first in first out: runs until it blocks or a higher priority preempts it. */
    public static final int FIFO = 1;

    /** Real-time round robin: as FIFO, but threads of one priority take turns in slices (100 ms by default). */
    public static final int RR = 2;

    /** The highest real-time priority. */
    public static final int MAX_REAL_TIME_PRIORITY = 99;

    /** The flag sched_getscheduler may add to the policy (SCHED_RESET_ON_FORK). */
    static final int RESET_ON_FORK = 0x40000000;

    /** Whether the policy is a real-time one (FIFO or RR). */
    public boolean realTime() {
        return policy == FIFO || policy == RR;
    }

    @Override
    public String toString() {
        String name = switch (policy) {
            case OTHER -> "SCHED_OTHER";
            case FIFO -> "SCHED_FIFO";
            case RR -> "SCHED_RR";
            case 3 -> "SCHED_BATCH";
            case 5 -> "SCHED_IDLE";
            case 6 -> "SCHED_DEADLINE";
            default -> "policy " + policy;
        };
        return realTime() ? name + " " + priority : name;
    }
}
