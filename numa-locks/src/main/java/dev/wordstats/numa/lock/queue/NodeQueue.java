package dev.wordstats.numa.lock.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One NUMA node's MCS queue (Mellor-Crummey &amp; Scott, 1991), shared by {@link NumaMcsLock} and
 * {@link NumaHandoffLock}: the tail that arriving threads of the node swap, the node's published
 * leader, and the count of handoffs in a row within the node. Padded by a class chain to 128
 * bytes on each side, so one node's queue does not share a cache line pair with another's or with
 * the lock word.
 */
final class NodeQueue extends NodeQueueL1Pad {
    private static final VarHandle TAIL;
    private static final VarHandle LEADER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(NodeQueueFields.class, "tail", QueueNode.class);
            LEADER = lookup.findVarHandle(NodeQueueFields.class, "leader", QueueNode.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Appends {@code node}: the previous tail (its predecessor, to link behind), or null when it leads at once. */
    QueueNode getAndSetTail(QueueNode node) {
        return (QueueNode) TAIL.getAndSet(this, node);
    }

    boolean casTail(QueueNode expect, QueueNode update) {
        return TAIL.compareAndSet(this, expect, update);
    }

    QueueNode leaderVolatile() {
        return (QueueNode) LEADER.getVolatile(this);
    }

    void setLeaderVolatile(QueueNode node) {
        LEADER.setVolatile(this, node);
    }

    /**
     * The node behind {@code current}, which is leaving the head of this queue; null when there is
     * none and the queue is now empty (the tail CAS back to null succeeded). A failed CAS means a
     * successor swapped the tail and is linking in: wait for its link ({@link QueueNode#awaitNext}).
     */
    QueueNode nextOrEmpty(QueueNode current, int linkSpins) {
        QueueNode next = current.nextVolatile();
        if (next == null) {
            if (casTail(current, null)) {
                return null;
            }
            next = current.awaitNext(linkSpins);
        }
        return next;
    }
}

abstract class NodeQueueL0Pad {
    byte q0000, q0001, q0002, q0003, q0004, q0005, q0006, q0007, q0008, q0009, q0010, q0011, q0012, q0013, q0014, q0015;
    byte q0016, q0017, q0018, q0019, q0020, q0021, q0022, q0023, q0024, q0025, q0026, q0027, q0028, q0029, q0030, q0031;
    byte q0032, q0033, q0034, q0035, q0036, q0037, q0038, q0039, q0040, q0041, q0042, q0043, q0044, q0045, q0046, q0047;
    byte q0048, q0049, q0050, q0051, q0052, q0053, q0054, q0055, q0056, q0057, q0058, q0059, q0060, q0061, q0062, q0063;
    byte q0064, q0065, q0066, q0067, q0068, q0069, q0070, q0071, q0072, q0073, q0074, q0075, q0076, q0077, q0078, q0079;
    byte q0080, q0081, q0082, q0083, q0084, q0085, q0086, q0087, q0088, q0089, q0090, q0091, q0092, q0093, q0094, q0095;
    byte q0096, q0097, q0098, q0099, q0100, q0101, q0102, q0103, q0104, q0105, q0106, q0107, q0108, q0109, q0110, q0111;
    byte q0112, q0113, q0114, q0115, q0116, q0117, q0118, q0119, q0120, q0121, q0122, q0123, q0124, q0125, q0126, q0127;
}

abstract class NodeQueueFields extends NodeQueueL0Pad {
    QueueNode tail; // getAndSet by enqueuing threads of this node; CAS to null by a departing leader or owner
    // volatile. NumaMcsLock: set by this node's leader around parking on the lock word, cleared when
    // it stops waiting; NumaHandoffLock: set by whoever makes a node leader, before it may lead.
    // Read by releasers of any node.
    QueueNode leader;
    int localStreak; // plain (NumaMcsLock), this queue's current leader only: handoffs in a row within the node
}

abstract class NodeQueueL1Pad extends NodeQueueFields {
    byte q1000, q1001, q1002, q1003, q1004, q1005, q1006, q1007, q1008, q1009, q1010, q1011, q1012, q1013, q1014, q1015;
    byte q1016, q1017, q1018, q1019, q1020, q1021, q1022, q1023, q1024, q1025, q1026, q1027, q1028, q1029, q1030, q1031;
    byte q1032, q1033, q1034, q1035, q1036, q1037, q1038, q1039, q1040, q1041, q1042, q1043, q1044, q1045, q1046, q1047;
    byte q1048, q1049, q1050, q1051, q1052, q1053, q1054, q1055, q1056, q1057, q1058, q1059, q1060, q1061, q1062, q1063;
    byte q1064, q1065, q1066, q1067, q1068, q1069, q1070, q1071, q1072, q1073, q1074, q1075, q1076, q1077, q1078, q1079;
    byte q1080, q1081, q1082, q1083, q1084, q1085, q1086, q1087, q1088, q1089, q1090, q1091, q1092, q1093, q1094, q1095;
    byte q1096, q1097, q1098, q1099, q1100, q1101, q1102, q1103, q1104, q1105, q1106, q1107, q1108, q1109, q1110, q1111;
    byte q1112, q1113, q1114, q1115, q1116, q1117, q1118, q1119, q1120, q1121, q1122, q1123, q1124, q1125, q1126, q1127;
}
