package dev.wordstats.numa.carrier;

import dev.wordstats.numa.os.LinuxNative;
import dev.wordstats.numa.os.NativeCallException;
import dev.wordstats.numa.topology.Topology;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The work of one {@link CarrierPinning#pinCarriers} call, run by each of its P virtual threads:
 * wait until all P run at once (so each holds a distinct carrier), then pin the own carrier to the
 * next CPU of the balanced order and read the affinity back. One instance is shared by the P
 * threads; the calling thread reads the outcome with {@link #state()} and {@link #report} after
 * joining them.
 *
 * <p>The rendezvous spins (bounded by the deadline, {@link Thread#onSpinWait()}) rather than parks:
 * a parked virtual thread frees its carrier, and the point is that P threads hold P carriers at
 * once. The first thread to see all P arrived moves the state from {@link #WAITING} to {@link #GO};
 * the first to see the deadline pass moves it to {@link #ABORTED} and records how many had arrived.
 */
final class PinningTask implements Runnable {

    static final int WAITING = 0;
    static final int GO = 1;
    static final int ABORTED = 2;

    private final Topology topology;
    private final List<Integer> cpuOrder;
    private final int carriers;
    private final long deadlineNanos;

    private final AtomicInteger arrived = new AtomicInteger(); // incremented once by each task thread
    private final AtomicInteger state = new AtomicInteger(WAITING); // CAS from WAITING, once, by any party
    private final AtomicInteger nextSlot = new AtomicInteger(); // getAndIncrement by each thread after GO
    private final AtomicInteger arrivedAtAbort = new AtomicInteger(-1); // set once by the aborting thread
    private final AtomicReferenceArray<CarrierPin> pins; // slot i set once by the thread that took slot i
    private final AtomicReferenceArray<String> errors; // slot i set once by the thread that took slot i

    PinningTask(Topology topology, List<Integer> cpuOrder, int carriers, long deadlineNanos) {
        this.topology = topology;
        this.cpuOrder = cpuOrder;
        this.carriers = carriers;
        this.deadlineNanos = deadlineNanos;
        this.pins = new AtomicReferenceArray<>(carriers);
        this.errors = new AtomicReferenceArray<>(carriers);
    }

    @Override
    public void run() {
        if (awaitAllCarriers()) {
            pinOwnCarrier(nextSlot.getAndIncrement());
        }
    }

    /** Spins until all P threads arrived (true) or the deadline passed or the caller gave up (false). */
    private boolean awaitAllCarriers() {
        arrived.incrementAndGet();
        while (state.get() == WAITING) {
            if (arrived.get() == carriers) {
                state.compareAndSet(WAITING, GO);
            } else if (System.nanoTime() - deadlineNanos > 0) {
                int seen = arrived.get();
                if (state.compareAndSet(WAITING, ABORTED)) {
                    arrivedAtAbort.set(seen);
                }
            }
            Thread.onSpinWait();
        }
        return state.get() == GO;
    }

    private void pinOwnCarrier(int slot) {
        int cpu = cpuOrder.get(slot % cpuOrder.size());
        String carrier = CarrierPinning.carrierName();
        try {
            BitSet one = new BitSet();
            one.set(cpu);
            LinuxNative.setAffinity(one);
            boolean verified = LinuxNative.getAffinity().equals(one) && LinuxNative.currentCpu() == cpu;
            pins.set(slot, new CarrierPin(carrier, cpu, topology.nodeOfCpu(cpu), verified));
        } catch (NativeCallException | UnsupportedOperationException e) {
            errors.set(slot, carrier + "->cpu" + cpu + ": " + e.getMessage());
        } catch (RuntimeException e) {
            errors.set(slot, carrier + "->cpu" + cpu + ": " + e);
        }
    }

    /** Stops threads still waiting for the others (the caller was interrupted). */
    void abort() {
        state.compareAndSet(WAITING, ABORTED);
    }

    /** {@link #WAITING}, {@link #GO} or {@link #ABORTED}. */
    int state() {
        return state.get();
    }

    /** How many threads had arrived when the deadline aborted the rendezvous, 0 if it did not. */
    int arrivedAtAbort() {
        return Math.max(0, arrivedAtAbort.get());
    }

    /** The names of the carriers pinned so far. */
    Set<String> pinnedCarriers() {
        Set<String> pinned = new HashSet<>();
        for (int i = 0; i < pins.length(); i++) {
            if (pins.get(i) != null) {
                pinned.add(pins.get(i).carrier());
            }
        }
        return pinned;
    }

    /**
     * The report of the pins and errors recorded so far.
     *
     * @param otherProblems problems found by the caller (carriers not reached)
     * @param reachedAll    whether every task thread ran its pinning step
     * @param detail        the report's detail before the problems are appended
     */
    PinningReport report(List<String> otherProblems, boolean reachedAll, String detail) {
        List<CarrierPin> list = new ArrayList<>();
        List<String> problems = new ArrayList<>(otherProblems);
        Set<String> distinctCarriers = new HashSet<>();
        for (int i = 0; i < pins.length(); i++) {
            CarrierPin pin = pins.get(i);
            if (pin != null) {
                list.add(pin);
                distinctCarriers.add(pin.carrier());
                if (!pin.verified()) {
                    problems.add(pin.carrier() + "->cpu" + pin.cpu() + ": affinity read back differs");
                }
            }
            if (errors.get(i) != null) {
                problems.add(errors.get(i));
            }
        }
        if (reachedAll && list.size() < pins.length() && problems.isEmpty()) {
            problems.add((pins.length() - list.size()) + " of " + pins.length() + " pinning tasks recorded no pin");
        }
        if (distinctCarriers.size() != list.size()) {
            problems.add("two pinning tasks ran on one carrier");
        }
        boolean complete = reachedAll && problems.isEmpty() && !list.isEmpty();
        return new PinningReport(
                list, complete, problems.isEmpty() ? detail : detail + "; " + String.join("; ", problems));
    }
}
