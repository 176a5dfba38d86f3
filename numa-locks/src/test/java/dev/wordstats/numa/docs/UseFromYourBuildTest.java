package dev.wordstats.numa.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The root README's "Use it from your build" against what it describes: its commands are the ones
 * {@code .ci/run} runs, its Maven and Gradle coordinates are the library's pom's, its JVM flags are the
 * build's ({@code wordstats.jvm.flags}), and {@code examples/maven-consumer}, which CI builds against the
 * installed jar, uses the same coordinates and flags. Gradle is not run here: its snippet is checked as
 * text. Also the terms a published pom carries (licence, url, scm, developers), and a CHANGELOG entry
 * for the version the poms build.
 */
class UseFromYourBuildTest {

    private static final String SECTION = "## Use it from your build";

    private static final Pattern FENCE = Pattern.compile("(?ms)^```(\\w+)\\n(.*?)^```$");

    private static final Pattern KOTLIN_STRING = Pattern.compile("\"([^\"]*)\"");

    private static final Pattern INLINE_COMMAND = Pattern.compile("`(\\./mvnw [^`]*)`");

    private final Path root = repositoryRoot();

    @Test
    void theSectionsCommandsAreTheOnesCiRuns() throws IOException {
        String section = section();
        List<String> commands = new ArrayList<>();
        for (String block : blocks(section, "sh")) {
            commands.addAll(block.lines().filter(l -> !l.isBlank()).toList());
        }
        Matcher inline = INLINE_COMMAND.matcher(section);
        while (inline.find()) {
            commands.add(inline.group(1));
        }
        assertThat(commands)
                .as("the install and the consumer build")
                .contains("./mvnw -B -ntp -pl numa-locks -am install -DskipTests")
                .anySatisfy(c -> assertThat(c).contains("examples/maven-consumer/pom.xml"));

        List<String> ciLines = read(".ci/run").lines().map(String::strip).toList();
        assertThat(ciLines)
                .as(".ci/run runs every command of the section as written")
                .containsAll(commands);
        assertThat(Files.isRegularFile(root.resolve("examples/maven-consumer/pom.xml")))
                .isTrue();
    }

    @Test
    void theMavenAndGradleCoordinatesAreTheLibrarysPom() throws IOException {
        String parent = read("pom.xml");
        String library = read("numa-locks/pom.xml");
        String groupId = element(parent, "groupId", "</modelVersion>");
        String version = element(parent, "version", "</modelVersion>");
        String artifactId = element(library, "artifactId", "</parent>");
        assertThat(element(library, "version", "<parent>"))
                .as("numa-locks' parent version")
                .isEqualTo(version);
        String coordinates = groupId + ":" + artifactId + ":" + version;
        assertThat(coordinates).isEqualTo("dev.wordstats:numa-locks:" + version);

        String section = section();
        String mavenSnippet = blocks(section, "xml").stream()
                .filter(b -> b.contains("<dependency>"))
                .findFirst()
                .orElseThrow();
        assertThat(dependency(mavenSnippet)).as("the README's <dependency>").isEqualTo(coordinates);
        assertThat(dependency(read("examples/maven-consumer/pom.xml")))
                .as("examples/maven-consumer's dependency")
                .isEqualTo(coordinates);

        String gradle = String.join("\n", blocks(section, "kotlin"));
        assertThat(gradle)
                .as("the Gradle snippet")
                .contains("implementation(\"" + coordinates + "\")")
                .contains("mavenLocal()")
                .contains("mavenCentral()");
    }

    @Test
    void theJvmFlagsAreTheBuildsForMavenGradleAndTheConsumer() throws IOException {
        String flags = element(read("pom.xml"), "wordstats.jvm.flags", "<properties>");
        assertThat(flags.split(" ")).as("the build's class-path flags").hasSize(3);

        String section = section();
        List<String> argLines = new ArrayList<>();
        for (String block : blocks(section, "xml")) {
            if (block.contains("<argLine>")) {
                argLines.add(element(block, "argLine", ""));
            }
        }
        assertThat(argLines).as("the README's <argLine>").containsExactly(flags);
        assertThat(element(read("examples/maven-consumer/pom.xml"), "argLine", ""))
                .as("examples/maven-consumer's argLine")
                .isEqualTo(flags);

        String gradleFlags = blocks(section, "kotlin").stream()
                .filter(b -> b.contains("jvmArgs"))
                .findFirst()
                .orElseThrow();
        List<String> listed = new ArrayList<>();
        Matcher string = KOTLIN_STRING.matcher(gradleFlags);
        while (string.find()) {
            listed.add(string.group(1));
        }
        assertThat(String.join(" ", listed)).as("the Gradle snippet's jvmArgs").isEqualTo(flags);
        assertThat(gradleFlags).contains("withType<Test>").contains("withType<JavaExec>");
    }

    @Test
    void theParentPomCarriesTheTermsEveryPublishedModuleInherits() throws IOException {
        String parent = read("pom.xml");
        String url = element(parent, "url", "</description>");
        assertThat(url).startsWith("https://");
        assertThat(parent)
                .as("modules keep the project's url and scm, not url/artifactId")
                .contains("child.project.url.inherit.append.path=\"false\"")
                .contains("child.scm.url.inherit.append.path=\"false\"")
                .contains("child.scm.connection.inherit.append.path=\"false\"");
        assertThat(element(parent, "url", "<scm")).as("the scm url").isEqualTo(url);
        assertThat(element(parent, "connection", "<scm")).isEqualTo("scm:git:" + url + ".git");
        assertThat(element(parent, "name", "<license>")).isEqualTo("Apache-2.0");
        assertThat(element(parent, "name", "<developer>")).isNotBlank();
        assertThat(read("LICENSE"))
                .contains("Apache License")
                .contains("Version 2.0, January 2004")
                .contains("END OF TERMS AND CONDITIONS");

        for (String module : modules(parent)) {
            String pom = read(module + "/pom.xml");
            assertThat(element(pom, "name", "</parent>")).as(module + "'s name").isNotBlank();
            assertThat(element(pom, "description", "</parent>"))
                    .as(module + "'s description")
                    .isNotBlank();
        }
    }

    @Test
    void theChangelogHasAnEntryForTheVersionThePomsBuild() throws IOException {
        String version = element(read("pom.xml"), "version", "</modelVersion>").replace("-SNAPSHOT", "");
        assertThat(read("CHANGELOG.md").lines())
                .as("a Keep a Changelog heading for " + version)
                .anySatisfy(l -> assertThat(l).startsWith("## " + version + " - "));
    }

    private String section() throws IOException {
        String readme = read("README.md");
        int start = readme.indexOf("\n" + SECTION + "\n");
        assertThat(start).as("README section " + SECTION).isNotNegative();
        int end = readme.indexOf("\n## ", start + 1);
        return readme.substring(start, end < 0 ? readme.length() : end);
    }

    private static List<String> blocks(String markdown, String language) {
        List<String> blocks = new ArrayList<>();
        Matcher fence = FENCE.matcher(markdown);
        while (fence.find()) {
            if (fence.group(1).equals(language)) {
                blocks.add(fence.group(2));
            }
        }
        assertThat(blocks).as("```" + language + " blocks").isNotEmpty();
        return blocks;
    }

    /** groupId:artifactId:version of the first {@code <dependency>} on numa-locks in {@code xml}. */
    private static String dependency(String xml) {
        Matcher dependency =
                Pattern.compile("(?s)<dependency>(.*?)</dependency>").matcher(xml);
        while (dependency.find()) {
            String d = dependency.group(1);
            if (element(d, "artifactId", "").equals("numa-locks")) {
                return element(d, "groupId", "") + ":" + element(d, "artifactId", "") + ":" + element(d, "version", "");
            }
        }
        throw new AssertionError("no <dependency> on numa-locks in:\n" + xml);
    }

    /** The text of the first element {@code name} after the first {@code after} in {@code xml}. */
    private static String element(String xml, String name, String after) {
        int from = xml.indexOf(after);
        assertThat(from).as(after + " in the pom").isNotNegative();
        Matcher m = Pattern.compile("(?s)<" + Pattern.quote(name) + ">(.*?)</" + Pattern.quote(name) + ">")
                .matcher(xml);
        assertThat(m.find(from)).as("<" + name + "> after " + after).isTrue();
        return m.group(1).strip().replaceAll("\\s+", " ");
    }

    private static List<String> modules(String parent) {
        List<String> modules = new ArrayList<>();
        Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(parent);
        while (m.find()) {
            modules.add(m.group(1));
        }
        assertThat(modules).contains("numa-locks");
        return modules;
    }

    private String read(String file) throws IOException {
        return Files.readString(root.resolve(file), StandardCharsets.UTF_8);
    }

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
