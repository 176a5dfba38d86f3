package dev.wordstats.service.counts;

import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.lock.probe.LockTimer;

/**
 * The probe of one stripe's read sections: it hands their wait and hold times to a timer. Read sections
 * overlap, so unlike the write sections' {@link dev.wordstats.numa.lock.probe.CountingProbe} it keeps no state.
 */
final class ReadSectionProbe implements LockProbe {

    private final LockTimer timer; // final
    private final boolean timed; // final

    ReadSectionProbe(LockTimer timer) {
        this.timer = timer;
        this.timed = timer != LockTimer.NONE;
    }

    @Override
    public boolean hearsFastPath() {
        return timed;
    }

    @Override
    public boolean timed() {
        return timed;
    }

    @Override
    public boolean wantsWaitNow() {
        return timed;
    }

    @Override
    public void acquired(boolean waited, long waitNanos) {}

    @Override
    public void released(boolean waited, long waitNanos, long holdNanos) {
        timer.recordWait(waitNanos, waited);
        timer.recordHold(holdNanos);
    }
}
