package dev.wordstats.numa.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every package of the library has a package-info whose Javadoc names each of its top-level types, public
 * or not: a reader who opens a package learns what is in it and which role each type plays.
 */
class PackageInfoListsEveryTypeTest {

    @Test
    void everyPackageInfoNamesEveryTypeOfItsPackage() {
        Path sources = Path.of("src/main/java");
        assertThat(packages(sources))
                .as("the library's packages under %s", sources.toAbsolutePath())
                .hasSizeGreaterThan(5);
        assertThat(unnamed(sources))
                .as("types their package-info does not name")
                .isEmpty();
    }

    @Test
    void aTypeLeftOutAndAPackageWithoutPackageInfoAreFound(@TempDir Path sources) throws IOException {
        Path listed = Files.createDirectories(sources.resolve("p/listed"));
        Files.writeString(
                listed.resolve("package-info.java"), "/** {@link p.listed.Named} and Other. */\npackage p.listed;\n");
        Files.writeString(listed.resolve("Named.java"), "package p.listed; public class Named {}\n");
        Files.writeString(listed.resolve("Other.java"), "package p.listed; class Other {}\n");
        Files.writeString(listed.resolve("Left.java"), "package p.listed; class Left {}\n");
        Files.writeString(listed.resolve("LeftOut.java"), "package p.listed; class LeftOut {}\n");
        Path bare = Files.createDirectories(sources.resolve("p/bare"));
        Files.writeString(bare.resolve("Alone.java"), "package p.bare; class Alone {}\n");

        assertThat(unnamed(sources))
                .containsExactly("p/bare: no package-info.java", "p/listed: Left", "p/listed: LeftOut");
    }

    /** For each package under {@code sources}: a missing package-info, or each type its package-info does not name. */
    private static List<String> unnamed(Path sources) {
        List<String> missing = new ArrayList<>();
        for (Path dir : packages(sources)) {
            String name = sources.relativize(dir).toString().replace('\\', '/');
            Path info = dir.resolve("package-info.java");
            if (!Files.exists(info)) {
                missing.add(name + ": no package-info.java");
                continue;
            }
            String text = read(info);
            for (String type : typesIn(dir)) {
                if (!Pattern.compile("\\b" + Pattern.quote(type) + "\\b")
                        .matcher(text)
                        .find()) {
                    missing.add(name + ": " + type);
                }
            }
        }
        return missing;
    }

    /** The folders under {@code sources} that hold Java sources other than package-info. */
    private static List<Path> packages(Path sources) {
        try (Stream<Path> files = Files.walk(sources)) {
            return files.filter(Files::isDirectory)
                    .filter(dir -> !typesIn(dir).isEmpty())
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The top-level types of {@code dir}: its source files' names. */
    private static List<String> typesIn(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.endsWith(".java") && !n.equals("package-info.java") && !n.equals("module-info.java"))
                    .map(n -> n.substring(0, n.length() - ".java".length()))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
