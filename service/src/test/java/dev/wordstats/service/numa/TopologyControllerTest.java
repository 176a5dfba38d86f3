package dev.wordstats.service.numa;

import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.wordstats.service.WordstatsProperties;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.web.servlet.MockMvc;

/** {@code /api/topology} over the web layer with the real {@link NumaRuntime} of this machine. */
@WebMvcTest(controllers = TopologyController.class)
@EnableConfigurationProperties(WordstatsProperties.class)
@Import(NumaRuntime.class)
class TopologyControllerTest {

    @Autowired
    MockMvc mvc;

    @Test
    void topologyListsNodesCpusDistancesAndPinning() throws Exception {
        mvc.perform(get("/api/topology"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.nodeCount").value(greaterThanOrEqualTo(1)))
                .andExpect(jsonPath("$.nodes[0].cpus").isArray())
                .andExpect(jsonPath("$.nodes[0].distances").isArray())
                .andExpect(jsonPath("$.cpus[0].id").isNumber())
                .andExpect(jsonPath("$.carrierPinning.enabled").value(false));
    }
}
