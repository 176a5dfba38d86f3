package dev.wordstats.service.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The problems a handler method can answer. {@link OpenApiConfiguration} turns them into the
 * operation's error responses (one per status, each listing its problem types, with the
 * problem+json schema), so the OpenAPI document states exactly what the code can send.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@interface ProblemResponses {

    ProblemType[] value();
}
