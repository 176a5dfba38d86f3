/**
 * Linux scheduler calls through JNA direct mapping ({@link dev.wordstats.numa.os.LinuxNative}):
 * {@code getcpu}, {@code sched_getaffinity}, {@code sched_setaffinity}, {@code sched_getscheduler},
 * {@code sched_getparam}, {@code sched_setscheduler}, with errno turned into
 * {@link dev.wordstats.numa.os.NativeCallException} and a clean fallback where they are unavailable.
 * JNA is touched by one package-private class only, so its absence never breaks class loading.
 *
 * <p>Types: {@code LinuxNative} (the calls) and what they return,
 * {@link dev.wordstats.numa.os.CpuLocation} and {@link dev.wordstats.numa.os.SchedulingPolicy};
 * {@code NativeCallException}; {@code LibC} (package-private), the JNA mapping.
 */
package dev.wordstats.numa.os;
