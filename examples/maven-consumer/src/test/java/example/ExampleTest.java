package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wordstats.numa.lock.LockType;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExampleTest {

    @Test
    void everyLockTypeOfTheInstalledJarCountsEveryVirtualThreadOnce() {
        assertFalse(LockType.available().isEmpty());
        for (LockType type : LockType.available()) {
            assertEquals(Map.of("word", 10_000), Example.count(type, "word", 10_000), type.name());
        }
    }

    @Test
    void aTypeOfTheLabIsRefusedWithTheArtifactToAddWhenOnlyTheLibraryIsOnTheClassPath() {
        // This project depends on numa-locks alone (pom.xml): the lab's types are not on its class path.
        List<LockType> unavailable =
                Arrays.stream(LockType.values()).filter(type -> !type.isAvailable()).toList();
        assertFalse(unavailable.isEmpty());
        for (LockType type : unavailable) {
            assertTrue(type.isInLab(), type.name());
            IllegalStateException refused =
                    assertThrows(IllegalStateException.class, () -> Example.count(type, "word", 1), type.name());
            assertTrue(refused.getMessage().contains("numa-locks-lab"), refused.getMessage());
        }
    }
}
