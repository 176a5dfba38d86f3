package dev.wordstats.numa.carrier;

import java.util.List;
import java.util.StringJoiner;

/**
 * What {@link CarrierPinning#pinCarriers} did.
 *
 * @param pins     one entry per carrier reached, in pinning order
 * @param complete whether every carrier of the scheduler was pinned and verified
 * @param detail   how many carriers were expected, and why the pinning is incomplete if it is
 */
public record PinningReport(List<CarrierPin> pins, boolean complete, String detail) {

    /** Copies the pin list (immutable). */
    public PinningReport {
        pins = List.copyOf(pins);
    }

    /**
     * One line for a log, e.g. {@code "pinned 2 carriers: ForkJoinPool-1-worker-1->cpu0(node0),
     * ForkJoinPool-1-worker-2->cpu1(node1)"}; an incomplete pinning starts with
     * {@code "carrier pinning incomplete (<detail>)"}.
     */
    public String summary() {
        StringJoiner list = new StringJoiner(", ");
        for (CarrierPin pin : pins) {
            list.add(pin.carrier() + "->cpu" + pin.cpu() + "(node" + pin.node() + ")"
                    + (pin.verified() ? "" : " UNVERIFIED"));
        }
        String pinned = "pinned " + pins.size() + (pins.size() == 1 ? " carrier" : " carriers")
                + (pins.isEmpty() ? "" : ": " + list);
        return complete ? pinned : "carrier pinning incomplete (" + detail + "); " + pinned;
    }
}
