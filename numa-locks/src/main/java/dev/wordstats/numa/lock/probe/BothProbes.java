package dev.wordstats.numa.lock.probe;

/** {@link LockProbe#both}: two sinks hearing one lock, each told only what it asked for. */
final class BothProbes implements LockProbe {

    private final LockProbe first;
    private final LockProbe second;
    private final boolean firstHearsFast;
    private final boolean secondHearsFast;
    private final boolean firstTimed;
    private final boolean secondTimed;
    private final boolean firstHearsRelease;
    private final boolean secondHearsRelease;

    BothProbes(LockProbe first, LockProbe second) {
        this.first = first;
        this.second = second;
        this.firstHearsFast = first.hearsFastPath();
        this.secondHearsFast = second.hearsFastPath();
        this.firstTimed = first.timed();
        this.secondTimed = second.timed();
        this.firstHearsRelease = first.hearsReleaseAfterWait();
        this.secondHearsRelease = second.hearsReleaseAfterWait();
    }

    @Override
    public boolean hearsFastPath() {
        return firstHearsFast || secondHearsFast;
    }

    @Override
    public boolean timed() {
        return firstTimed || secondTimed;
    }

    @Override
    public boolean hearsReleaseAfterWait() {
        return firstHearsRelease || secondHearsRelease;
    }

    /** Both are asked (not short-circuited): a probe may begin its wait here, as {@link JfrLockProbe} does. */
    @Override
    public boolean wantsWaitNow() {
        return first.wantsWaitNow() | second.wantsWaitNow();
    }

    @Override
    public void acquired(boolean waited, long waitNanos) {
        if (waited || firstHearsFast) {
            first.acquired(waited, firstTimed || waited ? waitNanos : 0L);
        }
        if (waited || secondHearsFast) {
            second.acquired(waited, secondTimed || waited ? waitNanos : 0L);
        }
    }

    @Override
    public void released(boolean waited, long waitNanos, long holdNanos) {
        if (firstTimed ? waited || firstHearsFast : waited && firstHearsRelease) {
            first.released(waited, waitNanos, holdNanos);
        }
        if (secondTimed ? waited || secondHearsFast : waited && secondHearsRelease) {
            second.released(waited, waitNanos, holdNanos);
        }
    }

    @Override
    public void reserved(int node) {
        first.reserved(node);
        second.reserved(node);
    }

    @Override
    public void combined(int size, long nanos) {
        first.combined(size, nanos);
        second.combined(size, nanos);
    }

    @Override
    public void modeSwitched(boolean queued) {
        first.modeSwitched(queued);
        second.modeSwitched(queued);
    }

    @Override
    public String toString() {
        return "LockProbe.both(" + first + ", " + second + ")";
    }
}
