package dev.wordstats.service.numa;

import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;

/**
 * In per-node mode ({@code wordstats.numa.scheduler: per-node} with virtual request threads),
 * gives Tomcat an executor that starts each request-processing task as a virtual thread on a node
 * chosen by the placement policy (round robin), on that node's own scheduler. Ordered last, so it
 * replaces the executor Spring Boot's own virtual-thread customizer sets. Otherwise it does nothing.
 */
@Component
class NodeAffineRequests implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>, Ordered {

    static final String THREAD_PREFIX = "tomcat-node";

    private final NumaRuntime numa;

    NodeAffineRequests(NumaRuntime numa) {
        this.numa = numa;
    }

    @Override
    public void customize(ConfigurableTomcatWebServerFactory factory) {
        if (numa.nodeAffineRequests()) {
            factory.addProtocolHandlerCustomizers(
                    handler -> handler.setExecutor(numa.schedulers().placingExecutor(THREAD_PREFIX)));
        }
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
