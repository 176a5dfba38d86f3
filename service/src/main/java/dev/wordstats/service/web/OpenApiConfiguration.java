package dev.wordstats.service.web;

import dev.wordstats.service.WordstatsProperties;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityScheme;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.info.BuildProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI document springdoc serves at {@code /v3/api-docs}: its version is the build's
 * ({@code META-INF/build-info.properties}, written by the spring-boot-maven-plugin), every
 * operation lists every response it can give (its {@link ProblemResponses} grouped by status,
 * plus 406 for an {@code Accept} header that excludes JSON, where an answer has a body), each error with the
 * {@code Problem} (RFC 9457) schema, and the bounds the service enforces (batch lines from
 * {@code wordstats.limits.max-batch-lines}, the word length from
 * {@code wordstats.limits.max-word-length}). Springdoc's own guess from the exception handlers
 * (a 500 on every operation) is switched off in {@code application.yml}
 * ({@code springdoc.override-with-generic-response: false}): no request can produce a 5xx.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

    static final String PROBLEM_SCHEMA = "Problem";

    /** The security scheme of the operations that need the credential. */
    static final String BASIC_AUTH = "basicAuth";

    private static final String PROBLEM_JSON = org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE;
    private static final String JSON = org.springframework.http.MediaType.APPLICATION_JSON_VALUE;

    @Bean
    OpenAPI wordstatsOpenApi(ObjectProvider<BuildProperties> build) {
        BuildProperties properties = build.getIfAvailable();
        String version = properties != null ? properties.getVersion() : versionFromManifest();
        return new OpenAPI()
                .components(new Components()
                        .addSecuritySchemes(
                                BASIC_AUTH,
                                new SecurityScheme()
                                        .type(SecurityScheme.Type.HTTP)
                                        .scheme("basic")
                                        .description("The service's credential: spring.security.user.name and "
                                                + "spring.security.user.password")))
                .info(new Info()
                        .title("wordstats")
                        .version(version)
                        .description("Counts words on stripes guarded by NUMA-aware or java.util.concurrent locks. "
                                + "Errors are RFC 9457 application/problem+json; problem types are "
                                + ProblemType.PREFIX + "<name>. Request bodies are read strictly: a number "
                                + "or boolean where a string belongs, an unknown field, a repeated field or "
                                + "trailing content is a 400 malformed-json, and a rejected request "
                                + "changes no count."));
    }

    /** Outside a Maven build (an IDE run) there is no build-info: the jar manifest, else "unknown". */
    private static String versionFromManifest() {
        String version = OpenApiConfiguration.class.getPackage().getImplementationVersion();
        return version != null ? version : "unknown";
    }

    /** Each handler's {@link ProblemResponses}, one response per status. */
    @Bean
    OperationCustomizer problemResponses() {
        return (operation, handler) -> {
            ProblemResponses problems = handler.getMethodAnnotation(ProblemResponses.class);
            if (problems != null) {
                Map<Integer, List<ProblemType>> byStatus = Arrays.stream(problems.value())
                        .collect(Collectors.groupingBy(t -> t.status().value(), TreeMap::new, Collectors.toList()));
                ApiResponses responses = responses(operation);
                byStatus.forEach((status, types) -> responses.addApiResponse(
                        String.valueOf(status),
                        problemResponse(types.stream()
                                .map(t -> t.uri() + " (" + t.title() + ")")
                                .collect(Collectors.joining("; ")))));
            }
            return operation;
        };
    }

    /** The Problem schema, 406 everywhere, JSON as the success media type, and the configured bounds. */
    @Bean
    OpenApiCustomizer documentedBounds(WordstatsProperties properties) {
        return openApi -> {
            openApi.getComponents().addSchemas(PROBLEM_SCHEMA, problemSchema());
            if (openApi.getPaths() != null) {
                for (PathItem path : openApi.getPaths().values()) {
                    for (Operation operation : path.readOperations()) {
                        ApiResponses responses = responses(operation);
                        boolean answersWithContent = responses.entrySet().stream()
                                .anyMatch(r -> r.getKey().startsWith("2")
                                        && r.getValue().getContent() != null
                                        && !r.getValue().getContent().isEmpty());
                        responses.values().forEach(OpenApiConfiguration::jsonInsteadOfAnything);
                        if (!answersWithContent) {
                            continue;
                        }
                        responses.addApiResponse(
                                "406",
                                problemResponse("about:blank (Not Acceptable): the Accept header allows neither " + JSON
                                        + " nor " + PROBLEM_JSON));
                        responses.values().forEach(OpenApiConfiguration::jsonInsteadOfAnything);
                    }
                }
            }
            PathItem word =
                    openApi.getPaths() == null ? null : openApi.getPaths().get("/api/words/{word}");
            if (word != null && word.getGet() != null && word.getGet().getParameters() != null) {
                word.getGet().getParameters().stream()
                        .filter(p -> "word".equals(p.getName()) && p.getSchema() != null)
                        .forEach(
                                p -> p.getSchema().maxLength(properties.limits().maxWordLength()));
            }
            Schema<?> batch = openApi.getComponents().getSchemas().get("BatchRequest");
            if (batch != null
                    && batch.getProperties() != null
                    && batch.getProperties().get("lines") != null) {
                batch.getProperties().get("lines").maxItems(properties.limits().maxBatchLines());
            }
        };
    }

    private static ApiResponses responses(Operation operation) {
        if (operation.getResponses() == null) {
            operation.setResponses(new ApiResponses());
        }
        return operation.getResponses();
    }

    /** Springdoc writes {@code *}{@code /*} for handlers without {@code produces}; they all write JSON. */
    private static void jsonInsteadOfAnything(ApiResponse response) {
        Content content = response.getContent();
        if (content != null && content.containsKey("*/*")) {
            content.put(JSON, content.remove("*/*"));
        }
    }

    private static ApiResponse problemResponse(String description) {
        return new ApiResponse()
                .description(description)
                .content(new Content()
                        .addMediaType(
                                PROBLEM_JSON,
                                new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + PROBLEM_SCHEMA))));
    }

    @SuppressWarnings("rawtypes")
    private static Schema<?> problemSchema() {
        Map<String, Schema> fields = new java.util.LinkedHashMap<>();
        fields.put("type", new StringSchema().description(ProblemType.PREFIX + "<name>, or about:blank"));
        fields.put("title", new StringSchema());
        fields.put("status", new IntegerSchema().minimum(java.math.BigDecimal.valueOf(400)));
        fields.put("detail", new StringSchema().description("what was wrong, in words; may change"));
        fields.put("instance", new StringSchema().description("the request path"));
        fields.put(
                "maxWordLength",
                new IntegerSchema().description("word-too-long only: the longest word accepted, in code points"));
        ObjectSchema schema = new ObjectSchema();
        schema.description("An RFC 9457 problem: clients switch on type; detail is for people");
        schema.setProperties(fields);
        schema.required(List.of("type", "title", "status"));
        return schema;
    }
}
