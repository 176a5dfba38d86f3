package dev.wordstats.numa.topology;

import java.util.BitSet;

/**
 * The kernel's cpulist syntax, as in {@code /sys/devices/system/cpu/online},
 * {@code node/nodeN/cpulist}, {@code Cpus_allowed_list} and cgroup {@code cpuset.cpus}:
 * comma-separated CPU numbers and inclusive ranges, for example {@code "0-3,8,10-11"}; an empty
 * string (or only white space) is the empty list. Ranges may carry the kernel's stride form
 * {@code "0-15:2/4"} (from each group of 4, the first 2). Anything else is rejected with a message
 * that names the bad part.
 */
public final class CpuList {

    /** Larger CPU numbers are rejected as garbage; Linux supports at most 8192 (CONFIG_NR_CPUS). */
    public static final int MAX_CPU = 65_535;

    private CpuList() {}

    /**
     * Parses a cpulist.
     *
     * @throws IllegalArgumentException naming the offending element when the text is not a cpulist
     */
    public static BitSet parse(String text) {
        BitSet cpus = new BitSet();
        String trimmed = text.strip();
        if (trimmed.isEmpty()) {
            return cpus;
        }
        for (String element : trimmed.split(",", -1)) {
            parseElement(element.strip(), text, cpus);
        }
        return cpus;
    }

    private static void parseElement(String element, String text, BitSet cpus) {
        if (element.isEmpty()) {
            throw bad(text, element, "empty element");
        }
        int dash = element.indexOf('-');
        if (dash < 0) {
            cpus.set(number(element, text, element));
            return;
        }
        int first = number(element.substring(0, dash), text, element);
        String rest = element.substring(dash + 1);
        int used = 1;
        int group = 1;
        int colon = rest.indexOf(':');
        if (colon >= 0) {
            int slash = rest.indexOf('/', colon);
            if (slash < 0) {
                throw bad(text, element, "stride needs the form a-b:used/group");
            }
            used = number(rest.substring(colon + 1, slash), text, element);
            group = number(rest.substring(slash + 1), text, element);
            if (used == 0 || group == 0 || used > group) {
                throw bad(text, element, "stride needs 0 < used <= group");
            }
            rest = rest.substring(0, colon);
        }
        int last = number(rest, text, element);
        if (last < first) {
            throw bad(text, element, "range end " + last + " is below its start " + first);
        }
        for (int cpu = first; cpu <= last; cpu++) {
            if ((cpu - first) % group < used) {
                cpus.set(cpu);
            }
        }
    }

    private static int number(String digits, String text, String element) {
        if (digits.isEmpty() || digits.length() > 6) {
            throw bad(text, element, digits.isEmpty() ? "missing number" : "number too long");
        }
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
                throw bad(text, element, "'" + digits + "' is not a CPU number");
            }
        }
        int value = Integer.parseInt(digits);
        if (value > MAX_CPU) {
            throw bad(text, element, "CPU number " + value + " is above " + MAX_CPU);
        }
        return value;
    }

    private static IllegalArgumentException bad(String text, String element, String why) {
        return new IllegalArgumentException("malformed cpulist '" + text.strip() + "': element '" + element + "': "
                + why + " (expected e.g. \"0-3,8,10-11\")");
    }

    /** Formats CPUs in the kernel's compact form, e.g. {@code "0-3,8,10-11"}; empty gives {@code ""}. */
    public static String format(BitSet cpus) {
        StringBuilder out = new StringBuilder();
        int start = cpus.nextSetBit(0);
        while (start >= 0) {
            int end = cpus.nextClearBit(start) - 1;
            if (!out.isEmpty()) {
                out.append(',');
            }
            out.append(start);
            if (end > start) {
                out.append('-').append(end);
            }
            start = cpus.nextSetBit(end + 1);
        }
        return out.toString();
    }

    /** Formats a collection of CPU numbers in the compact form. */
    public static String format(Iterable<Integer> cpus) {
        BitSet set = new BitSet();
        cpus.forEach(set::set);
        return format(set);
    }
}
