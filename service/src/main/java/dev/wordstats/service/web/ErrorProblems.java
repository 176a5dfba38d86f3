package dev.wordstats.service.web;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The error page ({@code server.error.path}, {@code /error}) as RFC 9457 problem+json, in place of
 * Spring Boot's JSON: what the container sends there, chiefly a request whose body stalled for
 * {@code server.tomcat.connection-timeout} (408, {@code urn:wordstats:problem:request-timeout}) or
 * could not be read (400), gets a problem like every other error of the API, with the API's type
 * for its status where there is one ({@link ContainerProblems.ProblemValve#typeOf}). Never a stack
 * trace or an exception message. Hidden from the OpenAPI document: it is no operation of the API.
 */
@Hidden
@RestController
class ErrorProblems implements ErrorController {

    @RequestMapping("${server.error.path:/error}")
    ResponseEntity<Map<String, Object>> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer i && i >= 400 ? i : HttpStatus.INTERNAL_SERVER_ERROR.value();
        Map<String, Object> problem = ContainerProblems.ProblemValve.problem(status);
        if (status == HttpStatus.REQUEST_TIMEOUT.value()) {
            problem.put("detail", "the request stalled: nothing more of it came within the connection timeout");
        }
        if (request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI) instanceof String uri) {
            problem.put("instance", uri);
        }
        return ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }
}
