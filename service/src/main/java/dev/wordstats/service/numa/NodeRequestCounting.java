package dev.wordstats.service.numa;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Counts each request under the node it was served on ({@link NumaRuntime#requestServed}): in
 * per-node mode the node of the request's scheduler (exact), otherwise the node lookup's answer at
 * the start of the request. Read by {@code /api/topology} and the {@code wordstats.node.requests}
 * counter.
 */
@Component
class NodeRequestCounting extends OncePerRequestFilter {

    private final NumaRuntime numa;

    NodeRequestCounting(NumaRuntime numa) {
        this.numa = numa;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        numa.requestServed(numa.nodeLocator().currentNode());
        chain.doFilter(request, response);
    }
}
