package dev.wordstats.service.web;

import java.io.IOException;
import java.io.Writer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.Container;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Errors that Tomcat answers itself, before any servlet runs, as RFC 9457 problem+json like every
 * other error of the API. A request line or header block over Tomcat's limit (8 KiB by default,
 * {@code server.max-http-request-header-size}), e.g. a query string repeating a parameter a
 * thousand times, never reaches Spring MVC: Tomcat's error report valve answered it with an HTML
 * page. This replaces that valve on the host with {@link ProblemValve}, which writes the same
 * status with a problem body. One status it changes: a request line naming an HTTP version Tomcat
 * does not speak ({@code GET / HTTP/9.9}) gets 400, not Tomcat's 505, since the fault is the
 * client's. Ordered last, so it also replaces the valve Spring Boot adds when
 * {@code server.error.include-stacktrace} is {@code never}.
 */
@Component
class ContainerProblems implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>, Ordered {

    @Override
    public void customize(ConfigurableTomcatWebServerFactory factory) {
        factory.addContextCustomizers(context -> install(context.getParent()));
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    /** Removes every error report valve from {@code host} and adds a {@link ProblemValve}. */
    static void install(Container host) {
        for (Valve valve : host.getPipeline().getValves()) {
            if (valve instanceof ErrorReportValve) {
                host.getPipeline().removeValve(valve);
            }
        }
        host.getPipeline().addValve(new ProblemValve());
        if (host instanceof StandardHost standard) {
            // The host adds a valve of this class at start unless one is there: name ours, not Tomcat's.
            standard.setErrorReportValveClass(ProblemValve.class.getName());
        }
    }

    /**
     * An error report valve that writes {@code application/problem+json}: the status Tomcat chose
     * (but 400 for its 505), the API's problem type for it where there is one ({@link #typeOf}), no
     * stack trace, no server information. Like Tomcat's own, it writes only when nothing has been
     * written and no error page has been reported, so every error Spring MVC answers keeps its body.
     */
    static final class ProblemValve extends ErrorReportValve {

        private static final JsonMapper JSON = JsonMapper.builder().build();

        ProblemValve() {
            setShowReport(false);
            setShowServerInfo(false);
        }

        @Override
        protected void report(Request request, Response response, @Nullable Throwable throwable) {
            int status = response.getStatus();
            if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
                return;
            }
            AtomicBoolean ioAllowed = new AtomicBoolean(true);
            response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
            if (!ioAllowed.get()) {
                return;
            }
            Map<String, Object> problem;
            if (status == HttpStatus.HTTP_VERSION_NOT_SUPPORTED.value()) {
                // Only Tomcat sends 505, for a request line naming a version it does not speak
                // (Http11Processor, before any servlet runs). The fault is the client's: 400.
                problem = problem(HttpStatus.BAD_REQUEST.value());
                problem.put("detail", "HTTP version not supported: this server speaks HTTP/1.1 and HTTP/1.0");
                response.setStatus(HttpStatus.BAD_REQUEST.value());
            } else {
                problem = problem(status);
            }
            try {
                response.setContentType("application/problem+json");
                response.setCharacterEncoding("UTF-8");
                Writer writer = response.getReporter();
                if (writer != null) {
                    writer.write(JSON.writeValueAsString(problem));
                    response.finishResponse();
                }
            } catch (IOException | IllegalStateException e) {
                // The connection is gone or the response committed meanwhile: nothing more to say.
            }
        }

        static Map<String, Object> problem(int status) {
            ProblemType type = typeOf(status);
            Map<String, Object> problem = new LinkedHashMap<>();
            HttpStatus known = HttpStatus.resolve(status);
            problem.put("type", type == null ? "about:blank" : type.uri().toString());
            problem.put("title", type == null ? (known == null ? "Error" : known.getReasonPhrase()) : type.title());
            problem.put("status", status);
            if (status == 400) {
                problem.put(
                        "detail",
                        "the server could not parse the request (e.g. a request line or headers over "
                                + "the size limit)");
            }
            return problem;
        }

        /** The API's problem type for a status Tomcat sets itself, or null for {@code about:blank}. */
        static @Nullable ProblemType typeOf(int status) {
            return switch (status) {
                case 400 -> ProblemType.INVALID_REQUEST;
                case 408 -> ProblemType.REQUEST_TIMEOUT;
                case 413 -> ProblemType.BODY_TOO_LARGE;
                case 415 -> ProblemType.UNSUPPORTED_MEDIA_TYPE;
                default -> null;
            };
        }
    }
}
