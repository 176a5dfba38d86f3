package dev.wordstats.numa.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.stream.Stream;

/** The sysfs fixture trees in src/test/resources/sysfs (see the README there). */
final class Fixtures {

    static final String LAPTOP = "laptop-1node-2cpu";
    static final String KUNPENG_48 = "kunpeng920-2node-48";
    static final String KUNPENG_128 = "kunpeng920-4node-128";
    static final String X86_SMT = "x86-2socket-smt";

    private Fixtures() {}

    static Path root(String machine) {
        URL url = Fixtures.class.getResource("/sysfs/" + machine);
        if (url == null) {
            throw new IllegalArgumentException("no sysfs fixture " + machine);
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static Topology load(String machine) {
        return Topology.fromSysfs(root(machine), null);
    }

    static Topology load(String machine, String allowedCpus) {
        return Topology.fromSysfs(root(machine), CpuList.parse(allowedCpus));
    }

    static BitSet cpus(String list) {
        return CpuList.parse(list);
    }

    /** A writable copy of a fixture, for tests that corrupt files. */
    static Path copy(String machine, Path into) {
        Path source = root(machine);
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path target = into.resolve(source.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return into;
    }
}
