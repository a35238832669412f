package datalake.lambda;

import java.time.Duration;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/**
 * The HTTP client of a function: the JDK's URL connection (no pool threads, TLS from the JDK, the
 * smallest jar; docs/PERFORMANCE.md has the comparison), made to keep as many idle connections as
 * the function makes concurrent calls.
 *
 * <p>HttpURLConnection keeps at most {@code http.maxConnections} idle connections per host, 5 unless
 * set, and closes the others after their response: with more concurrent calls than that (the query's
 * day buckets, the ingester's HEADs) every further call would open a new connection, and against AWS
 * each new connection is a TLS handshake. The JDK reads the property once, at the first connection,
 * so it is raised before the client exists; a larger value set explicitly (JAVA_TOOL_OPTIONS) stays.
 */
public final class LambdaHttpClient {
    static final String KEEP_ALIVE_PROPERTY = "http.maxConnections";

    private LambdaHttpClient() {
    }

    /**
     * Returns the SDK HTTP client for a function, keeping enough idle connections for its calls.
     *
     * @param concurrentCalls the most calls the function makes at once to one host
     */
    public static SdkHttpClient create(int concurrentCalls, Duration connectTimeout, Duration socketTimeout) {
        keepIdleConnections(concurrentCalls);
        return UrlConnectionHttpClient.builder()
                .connectionTimeout(connectTimeout)
                .socketTimeout(socketTimeout)
                .build();
    }

    /** Raises {@code http.maxConnections} to {@code connections} unless it is set to at least that. */
    static synchronized void keepIdleConnections(int connections) {
        if (connections < 1) {
            throw new IllegalArgumentException("a function makes at least one call at a time, not " + connections);
        }
        if (currentSetting() < connections) {
            System.setProperty(KEEP_ALIVE_PROPERTY, Integer.toString(connections));
        }
    }

    /** The property's value, or 0 when it is unset or not a number (the JDK then keeps 5). */
    private static int currentSetting() {
        String value = System.getProperty(KEEP_ALIVE_PROPERTY);
        try {
            return value == null ? 0 : Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
