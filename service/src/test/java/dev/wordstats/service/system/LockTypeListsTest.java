package dev.wordstats.service.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.LockType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lists of lock types in the service's configuration files are {@link LockType}'s facts: the types a
 * comment names for a setting are exactly the types that read it, and the type list names every type.
 */
class LockTypeListsTest {

    private static final Pattern TYPE_NAME = Pattern.compile("\\b[A-Z][A-Z_]+[A-Z]\\b");

    private static final Set<String> TYPES =
            Arrays.stream(LockType.values()).map(Enum::name).collect(Collectors.toSet());

    @Test
    void theServicesTypeListNamesEveryTypeOnce() throws IOException {
        List<String> listed = Files.readAllLines(Path.of("src/main/resources/application.yml")).stream()
                .map(line -> Pattern.compile("^\\s*#\\s{3}([A-Z_]+)\\s{2,}\\S").matcher(line))
                .filter(Matcher::find)
                .map(m -> m.group(1))
                .toList();
        assertThat(listed).as("the `type` comment's list").containsExactlyInAnyOrderElementsOf(TYPES);
    }

    @ParameterizedTest
    @ValueSource(strings = {"src/main/resources/application.yml", "../deploy/application.yml"})
    void theTypesNamedForEachSettingAreTheTypesThatReadIt(String file) throws IOException {
        List<String> lines = Files.readAllLines(Path.of(file));
        assertThat(typesNamedAbove(lines, "reserve-after:"))
                .as("%s: reserve-after", file)
                .isEqualTo(typesThat(LockType::readsQueueSettings));
        assertThat(typesNamedAbove(lines, "handoff-after:"))
                .as("%s: handoff-after", file)
                .isEqualTo(typesThat(LockType::readsMonitorSettings));
    }

    private static Set<String> typesThat(Predicate<LockType> reads) {
        return Arrays.stream(LockType.values())
                .filter(reads)
                .map(Enum::name)
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    /**
     * The lock types a setting's comment is for: those named in the first line of the comment right above the
     * line that starts with {@code key}, before its first colon ("NUMA_MONITOR: the bound on a wait").
     */
    private static Set<String> typesNamedAbove(List<String> lines, String key) {
        int at = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().startsWith(key)) {
                at = i;
                break;
            }
        }
        assertThat(at).as("a line %s", key).isNotNegative();
        int first = at;
        while (first > 0 && lines.get(first - 1).strip().startsWith("#")) {
            first--;
        }
        assertThat(first).as("a comment above %s", key).isLessThan(at);
        String head = lines.get(first);
        assertThat(head)
                .as("the comment's first line names its types before a colon")
                .contains(":");
        Matcher m = TYPE_NAME.matcher(head.substring(0, head.indexOf(':')));
        Set<String> named = new LinkedHashSet<>();
        while (m.find()) {
            if (TYPES.contains(m.group())) {
                named.add(m.group());
            }
        }
        return typesThat(type -> named.contains(type.name()));
    }
}
