package dev.wordstats.numa.os;

import dev.wordstats.numa.topology.Topology;

/**
 * Run in a child JVM whose JNA cannot load its native library: prints how LinuxNative and
 * Topology.detect() behave, one {@code key=value} per line.
 */
public final class NativeFallbackMain {

    private NativeFallbackMain() {}

    public static void main(String[] args) {
        System.out.println("available=" + LinuxNative.available());
        System.out.println("reason=" + LinuxNative.unavailableReason());
        System.out.println("getcpu=" + LinuxNative.getcpu());
        System.out.println("currentCpu=" + LinuxNative.currentCpu());
        System.out.println("affinity=" + LinuxNative.getAffinity());
        System.out.println("processors=" + Runtime.getRuntime().availableProcessors());
        try {
            java.util.BitSet one = new java.util.BitSet();
            one.set(0);
            LinuxNative.setAffinity(one);
            System.out.println("setAffinity=no exception");
        } catch (RuntimeException e) {
            System.out.println("setAffinity=" + e);
        }
        System.out.println("topology=" + Topology.detect().summary());
    }
}
