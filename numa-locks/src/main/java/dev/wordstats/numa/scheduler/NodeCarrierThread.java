package dev.wordstats.numa.scheduler;

import dev.wordstats.numa.os.LinuxNative;
import java.util.BitSet;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;

/**
 * A carrier of one node's virtual-thread scheduler: a pool worker named
 * {@code wordstats-node<k>-carrier-<i>} that restricts itself to the node's CPUs
 * ({@code sched_setaffinity}) before it runs anything, and reads its affinity back.
 *
 * <p>{@link #node} is final and read by {@link SchedulerNodeLocator} from the virtual threads it
 * carries: the node lookup is a field read of the current carrier.
 */
final class NodeCarrierThread extends ForkJoinWorkerThread {

    final NodeScheduler scheduler; // final: the node's scheduler that created this carrier
    final int node; // final: the node index, read by SchedulerNodeLocator
    private volatile BitSet affinity; // written once by this thread in onStart, read by reports
    private volatile String pinFailure = ""; // written once by this thread in onStart when pinning failed

    NodeCarrierThread(ForkJoinPool pool, NodeScheduler scheduler, String name) {
        super(null, pool, true);
        this.scheduler = scheduler;
        this.node = scheduler.node();
        setName(name);
    }

    @Override
    protected void onStart() {
        super.onStart();
        try {
            LinuxNative.setAffinity(scheduler.cpus());
        } catch (RuntimeException e) { // unsupported off Linux, refused by the kernel or the cpuset
            pinFailure = e.getMessage();
        }
        try {
            affinity = LinuxNative.getAffinity();
        } catch (RuntimeException e) {
            affinity = new BitSet();
        }
        scheduler.carrierStarted(this);
    }

    @Override
    protected void onTermination(Throwable exception) {
        scheduler.carrierEnded(this);
        super.onTermination(exception);
    }

    /** This carrier as a report line: name, CPUs it may run on, whether they are all the node's. */
    CarrierInfo info() {
        BitSet cpus = affinity;
        BitSet allowed = cpus == null ? new BitSet() : (BitSet) cpus.clone();
        boolean pinned = cpus != null && !cpus.isEmpty() && pinFailure.isEmpty() && within(allowed, scheduler.cpus());
        return new CarrierInfo(getName(), node, allowed.stream().boxed().toList(), pinned, pinFailure);
    }

    private static boolean within(BitSet cpus, BitSet nodeCpus) {
        BitSet outside = (BitSet) cpus.clone();
        outside.andNot(nodeCpus);
        return outside.isEmpty();
    }
}
