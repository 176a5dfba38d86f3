package dev.wordstats.loadtests;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;

/**
 * Load is only ever sent to this machine: a base URL whose host is not a loopback address
 * (127.0.0.0/8, localhost, [::1]) is refused before any request leaves.
 */
public final class Loopback {

    private Loopback() {}

    /** The URI of {@code baseUrl} if it is an http(s) URL on a loopback host, else an exception. */
    public static URI requireLoopback(String baseUrl) {
        URI uri;
        try {
            uri = new URI(baseUrl);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("baseUrl '" + baseUrl + "' is not a valid URL: " + e.getMessage(), e);
        }
        String scheme = uri.getScheme();
        if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme)) {
            throw new IllegalArgumentException("baseUrl '" + baseUrl + "' must be an http:// or https:// URL");
        }
        String host = uri.getHost();
        if (host == null || !isLoopback(host)) {
            throw new IllegalArgumentException("baseUrl '" + baseUrl + "' is refused: load tests send traffic"
                    + " only to this machine (127.0.0.0/8, localhost or [::1]), not to host '" + host + "'");
        }
        return uri;
    }

    static boolean isLoopback(String host) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (h.equalsIgnoreCase("localhost")) {
            return true;
        }
        // Only literal addresses are accepted besides "localhost": no name resolution, so no DNS
        // answer can turn a name into a loopback address here and something else later.
        if (!isIpLiteral(h)) {
            return false;
        }
        try {
            return InetAddress.getByName(h).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static boolean isIpLiteral(String h) {
        return h.matches("\\d{1,3}(\\.\\d{1,3}){3}") || (h.contains(":") && h.matches("[0-9a-fA-F:.]+"));
    }
}
