package dev.wordstats.service.web;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The title of the OpenAPI document springdoc serves at {@code /v3/api-docs}. */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

    @Bean
    OpenAPI wordstatsOpenApi() {
        return new OpenAPI()
                .info(
                        new Info()
                                .title("wordstats")
                                .version("0.1.0")
                                .description(
                                        "Counts words on stripes guarded by NUMA-aware or java.util.concurrent locks. "
                                                + "Errors are RFC 9457 application/problem+json; problem types are urn:wordstats:problem:<name>."));
    }
}
