#!/usr/bin/env python3
"""Writes the sysfs fixture trees used by TopologyFixturesTest (run from this folder).

Each tree holds only the files SysfsReader reads. See README.md for where each shape comes from
and which values are approximations.
"""
import os
import shutil


def cpulist(cpus):
    cpus = sorted(cpus)
    parts, i = [], 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        parts.append(str(cpus[i]) if i == j else f"{cpus[i]}-{cpus[j]}")
        i = j + 1
    return ",".join(parts)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text + "\n")


def machine(name, cpus, nodes, distances):
    """cpus: {id: (package, cluster, core, siblings)}; nodes: [(os_id, [cpu ids])]; distances: rows."""
    shutil.rmtree(name, ignore_errors=True)
    write(f"{name}/cpu/online", cpulist(cpus))
    for cpu, (pkg, cluster, core, siblings) in cpus.items():
        topo = f"{name}/cpu/cpu{cpu}/topology"
        write(f"{topo}/physical_package_id", str(pkg))
        write(f"{topo}/cluster_id", str(cluster))
        write(f"{topo}/core_id", str(core))
        write(f"{topo}/thread_siblings_list", cpulist(siblings))
    write(f"{name}/node/online", cpulist([n for n, _ in nodes]))
    for (node, node_cpus), row in zip(nodes, distances):
        write(f"{name}/node/node{node}/cpulist", cpulist(node_cpus))
        write(f"{name}/node/node{node}/distance", " ".join(str(d) for d in row))


# This development box: 2 vCPUs of an AMD EPYC guest, one node; cluster_id 65535 (x86: unknown).
machine("laptop-1node-2cpu",
        {0: (0, 65535, 0, [0]), 1: (0, 65535, 1, [1])},
        [(0, [0, 1])],
        [[10]])

# Kunpeng 920 48-core (one socket, two dies = two nodes of 24 cores, clusters of 4 cores, no SMT).
machine("kunpeng920-2node-48",
        {c: (0, c // 4, c, [c]) for c in range(48)},
        [(0, range(0, 24)), (1, range(24, 48))],
        [[10, 15], [15, 10]])

# Kunpeng 920 2P x 64 cores: 4 nodes of 32 cores, nodes 0-1 on package 0, 2-3 on package 1.
machine("kunpeng920-4node-128",
        {c: (c // 64, c // 4, c, [c]) for c in range(128)},
        [(n, range(32 * n, 32 * n + 32)) for n in range(4)],
        [[10, 12, 20, 22], [12, 10, 22, 24], [20, 22, 10, 12], [22, 24, 12, 10]])


# x86, 2 sockets x 8 cores x 2 SMT threads; Linux numbers first threads 0-15, siblings 16-31.
def x86(cpu):
    thread, rest = divmod(cpu, 16)
    pkg, core = divmod(rest, 8)
    first = pkg * 8 + core
    return (pkg, pkg * 16 + core, core, [first, first + 16])


machine("x86-2socket-smt",
        {c: x86(c) for c in range(32)},
        [(0, list(range(0, 8)) + list(range(16, 24))), (1, list(range(8, 16)) + list(range(24, 32)))],
        [[10, 21], [21, 10]])
