package dev.wordstats.numa.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.docs.CheckedByReferences.Reference;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every "checked by" reference of the repository (Overview comments, READMEs, CONTRIBUTING.md) names
 * a test class and method that exist; and the scanner that says so finds a planted bad reference.
 */
class CheckedByReferencesTest {

    private static final String CHECKED_BY = "checked" + " by ";

    @Test
    void everyCheckedByReferenceInTheRepositoryNamesAnExistingTest() {
        Path root = repositoryRoot();
        assertThat(CheckedByReferences.scan(root))
                .as("the lock Overviews name the tests of their invariants")
                .isNotEmpty();
        assertThat(CheckedByReferences.broken(root))
                .as("references whose test class or method does not exist")
                .isEmpty();
    }

    @Test
    void aPlantedBadReferenceIsReportedWithItsFileAndLineButNotInBuildOutput(@TempDir Path root) throws IOException {
        writeTestSources(root);
        write(root.resolve("lib/src/main/java/p/SomeLock.java"), """
                package p;

                /* Overview
                 *  - Mutual exclusion. // %sSomeLockTest.excludes
                 *  - Reservation.
                 *    // %sSomeLockTest.reservationHolds
                 */
                class SomeLock {}
                """.formatted(CHECKED_BY, CHECKED_BY));
        write(
                root.resolve("README.md"),
                "Handoffs are %sMissingTest.anything; the queue is %sSomeLockTest.excludes.\n"
                        .formatted(CHECKED_BY, CHECKED_BY));

        write(root.resolve("lib/target/site/README.md"), CHECKED_BY + "InBuildOutputTest.x\n");
        write(root.resolve(".hidden/README.md"), CHECKED_BY + "InHiddenFolderTest.x\n");

        List<Reference> broken = CheckedByReferences.broken(root);

        assertThat(broken)
                .extracting(Reference::toString)
                .containsExactlyInAnyOrder(
                        Path.of("lib/src/main/java/p/SomeLock.java") + ":6: " + CHECKED_BY
                                + "SomeLockTest.reservationHolds",
                        Path.of("README.md") + ":1: " + CHECKED_BY + "MissingTest.anything");
    }

    @Test
    void inheritedMethodsNestedClassesListsBracesAndSlashesResolve(@TempDir Path root) throws IOException {
        writeTestSources(root);
        write(
                root.resolve("CONTRIBUTING.md"),
                String.join(
                        "\n",
                        "- a: " + CHECKED_BY + "SomeLockContractTest.mutualExclusion (inherited)",
                        "- b: " + CHECKED_BY + "SomeLockTests.Race{SameNode,CrossNode}, SomeLockTests.*",
                        "- c: " + CHECKED_BY + "SomeLockTests.RaceSameNode/RaceCrossNode and jcstress",
                        "- d: " + CHECKED_BY + "SomeLockTest#excludes, SomeLockContractTest (all)",
                        "- e: " + CHECKED_BY,
                        "  SomeLockTest.excludes, wrapped onto the next line",
                        ""));

        assertThat(CheckedByReferences.scan(root))
                .extracting(r -> r.className() + "." + r.member())
                .containsExactly(
                        "SomeLockContractTest.mutualExclusion",
                        "SomeLockTests.RaceSameNode",
                        "SomeLockTests.RaceCrossNode",
                        "SomeLockTests.null",
                        "SomeLockTests.RaceSameNode",
                        "SomeLockTests.RaceCrossNode",
                        "SomeLockTest.excludes",
                        "SomeLockContractTest.null",
                        "SomeLockTest.excludes");
        assertThat(CheckedByReferences.broken(root)).isEmpty();
    }

    @Test
    void aMethodOnlyCalledOrAMemberOfAnotherClassDoesNotCount(@TempDir Path root) throws IOException {
        writeTestSources(root);
        write(
                root.resolve("README.md"),
                CHECKED_BY + "SomeLockTest.helper; " + CHECKED_BY + "SomeLockTest.RaceSameNode; " + CHECKED_BY
                        + "SomeLockTest.inAString.\n");

        assertThat(CheckedByReferences.broken(root))
                .extracting(Reference::member)
                .containsExactly("helper", "RaceSameNode", "inAString");
    }

    @Test
    void referencesInJavaCodeAndStringsAreNotRead() {
        String source = """
                class A {
                    String s = "%sNoSuchTest.x";
                    // %sRealTest.y
                }
                """.formatted(CHECKED_BY, CHECKED_BY);

        List<Reference> refs =
                CheckedByReferences.references(Path.of("A.java"), CheckedByReferences.commentsOnly(source));

        assertThat(refs).extracting(Reference::toString).containsExactly("A.java:3: " + CHECKED_BY + "RealTest.y");
    }

    private static void writeTestSources(Path root) throws IOException {
        write(root.resolve("lib/src/test/java/p/LockContract.java"), """
                package p;
                abstract class LockContract {
                    @org.junit.jupiter.api.Test
                    void mutualExclusion() throws Exception {}
                }
                """);
        write(root.resolve("lib/src/test/java/p/SomeLockContractTest.java"), """
                package p;
                class SomeLockContractTest extends LockContract {}
                """);
        write(root.resolve("lib/src/test/java/p/SomeLockTest.java"), """
                package p;
                class SomeLockTest {
                    @org.junit.jupiter.api.Test
                    void excludes() {
                        if (helper(1)) {
                            String s = "void inAString() {";
                        }
                    }
                }
                """);
        write(root.resolve("concurrency-tests/src/main/java/p/SomeLockTests.java"), """
                package p;
                public final class SomeLockTests {
                    public static class RaceSameNode {}
                    public static class RaceCrossNode {}
                }
                """);
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    /** The repository root: the first folder up from the module that holds {@code mvnw}. */
    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("mvnw"))) {
            dir = dir.getParent();
        }
        assertThat(dir)
                .as("a folder above %s holding mvnw", Path.of("").toAbsolutePath())
                .isNotNull();
        return dir;
    }
}
