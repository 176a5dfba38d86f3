package dev.wordstats.service.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.WebSecurityCustomizer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.StrictHttpFirewall;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Who may do what. Two filter chains:
 * <ul>
 *   <li>{@link #protectedPaths}: {@code DELETE /api/words} (destroys every count), every actuator
 *       endpoint but {@code health} and {@code prometheus} (they reveal the configuration and the
 *       runtime), and {@code /actuator/health/snapshots}, the health path that shows details (the
 *       data directory's last error), need HTTP Basic with the credential Spring Boot configures from
 *       {@code spring.security.user.name} / {@code spring.security.user.password} (without a password,
 *       Boot generates one and logs it at start-up). A missing or wrong credential gets a 401
 *       {@code application/problem+json} with {@code WWW-Authenticate: Basic}; the request does
 *       nothing.</li>
 *   <li>{@link #openPaths}: everything else (counting, reading, the OpenAPI document, health, the
 *       Prometheus scrape) is open, and this chain has no authentication filter at all, so an open
 *       request never pays for a password check, whatever headers it carries. They are open because
 *       they are the service's purpose and what load generators and Prometheus call at high rates;
 *       to close them, move their matchers into {@link #protectedPaths}.</li>
 * </ul>
 * Both chains are stateless (no session, no CSRF token: a browser never holds a session to ride on).
 */
@Configuration(proxyBeanMethods = false)
class ApiSecurity {

    static final String REALM = "wordstats";

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    /** The requests that need the credential. */
    static RequestMatcher protectedRequests() {
        return new OrRequestMatcher(
                PathPatternRequestMatcher.withDefaults().matcher(HttpMethod.DELETE, "/api/words"),
                EndpointRequest.toAnyEndpoint().excluding("health", "prometheus"),
                PathPatternRequestMatcher.withDefaults().matcher(HttpMethod.GET, "/actuator/health/snapshots"));
    }

    @Bean
    @Order(1)
    SecurityFilterChain protectedPaths(HttpSecurity http) throws Exception {
        AuthenticationEntryPoint unauthorized = ApiSecurity::unauthorized;
        return http.securityMatcher(protectedRequests())
                .authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
                .httpBasic(basic -> basic.realmName(REALM).authenticationEntryPoint(unauthorized))
                .exceptionHandling(exceptions -> exceptions.authenticationEntryPoint(unauthorized))
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .requestCache(cache -> cache.disable())
                .csrf(csrf -> csrf.disable())
                .build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain openPaths(HttpSecurity http) throws Exception {
        return http.authorizeHttpRequests(requests -> requests.anyRequest().permitAll())
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .requestCache(cache -> cache.disable())
                .csrf(csrf -> csrf.disable())
                .anonymous(Customizer.withDefaults())
                .build();
    }

    /**
     * The firewall every request passes first. Spring Security's strict one, except that any HTTP
     * method gets through, so Spring MVC answers a method the API does not have (e.g.
     * {@code QUERY}) with its 405 problem; what the firewall still rejects (an encoded slash, a
     * control character in the path, ...) gets a 400 problem+json, not the container's error page.
     */
    @Bean
    WebSecurityCustomizer firewall() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setUnsafeAllowAnyHttpMethod(true);
        return web -> web.httpFirewall(firewall).requestRejectedHandler(ApiSecurity::rejected);
    }

    /** 401 as RFC 9457 problem+json, with the Basic challenge. */
    private static void unauthorized(
            HttpServletRequest request, HttpServletResponse response, AuthenticationException e) throws IOException {
        response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Basic realm=\"" + REALM + "\", charset=\"UTF-8\"");
        writeProblem(
                request,
                response,
                ProblemType.UNAUTHORIZED,
                request.getHeader(HttpHeaders.AUTHORIZATION) == null
                        ? "this request needs the service's credential (HTTP Basic)"
                        : "the credential was not accepted");
    }

    private static void rejected(HttpServletRequest request, HttpServletResponse response, RequestRejectedException e)
            throws IOException {
        writeProblem(request, response, ProblemType.INVALID_REQUEST, "the request was rejected: " + e.getMessage());
    }

    private static void writeProblem(
            HttpServletRequest request, HttpServletResponse response, ProblemType type, String detail)
            throws IOException {
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", type.uri().toString());
        problem.put("title", type.title());
        problem.put("status", type.status().value());
        problem.put("detail", detail);
        problem.put("instance", request.getRequestURI());
        response.setStatus(type.status().value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE); // JSON is UTF-8 (RFC 8259)
        JSON.writeValue(response.getOutputStream(), problem);
    }
}
