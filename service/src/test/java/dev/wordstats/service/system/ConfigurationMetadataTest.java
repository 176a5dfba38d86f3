package dev.wordstats.service.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The configuration processor's metadata (IDE completion and help for {@code wordstats.*}) is
 * built, and every {@code wordstats.*} property in it has a description (from the
 * {@code WordstatsProperties} Javadoc) free of Javadoc markup an IDE would show raw.
 */
class ConfigurationMetadataTest {

    @Test
    void everyWordstatsPropertyHasADescription() throws IOException {
        JsonNode metadata;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("META-INF/spring-configuration-metadata.json").isNotNull();
            metadata = JsonMapper.builder().build().readTree(in);
        }
        List<String> names = new ArrayList<>();
        for (JsonNode property : metadata.path("properties")) {
            String name = property.path("name").asString();
            if (!name.startsWith("wordstats.")) {
                continue;
            }
            names.add(name);
            String description = property.path("description").asString();
            assertThat(description).as(name).isNotBlank().doesNotContain("{@");
        }
        assertThat(names)
                .contains(
                        "wordstats.lock.type",
                        "wordstats.lock.stripes",
                        "wordstats.numa.simulated-nodes",
                        "wordstats.limits.max-body-bytes",
                        "wordstats.batch.parallelism");
    }
}
