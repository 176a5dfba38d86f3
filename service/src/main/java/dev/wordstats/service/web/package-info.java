/**
 * The HTTP API: controllers, strict request-body reading within the configured limits, RFC 9457 problem
 * responses and the OpenAPI description. Uses {@code counts}, {@code text} and {@code numa}.
 */
@NullMarked
package dev.wordstats.service.web;

import org.jspecify.annotations.NullMarked;
