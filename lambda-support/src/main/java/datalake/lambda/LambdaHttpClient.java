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
 *
 * <p>It also drops a connection idle for 5 seconds when the server names no timeout, and DynamoDB names
 * none (aws/aws-sdk-java-v2#3941): a function called less often than that paid a TLS handshake for each
 * connection again. {@code http.keepAlive.time.server}, read once too, keeps them {@value #IDLE_SECONDS} s
 * unless set explicitly: under the 60 s of the SDK's Apache client, and of DynamoDB's endpoints as seen
 * (aws/aws-sdk-java#1365). One that a server closed sooner (S3's, after about 20 s, as reported) costs no
 * failed call: the JDK checks that a kept connection is still open before it streams a POST's body on it,
 * and sends another request again on a new connection when the kept one turns out closed.
 */
public final class LambdaHttpClient {
    static final String KEEP_ALIVE_PROPERTY = "http.maxConnections";
    static final String IDLE_TIME_PROPERTY = "http.keepAlive.time.server";
    /** How long an idle connection is kept, in seconds. */
    static final int IDLE_SECONDS = 55;

    private LambdaHttpClient() {
    }

    /**
     * Returns the SDK HTTP client for a function, keeping enough idle connections for its calls, and
     * keeping them while idle for {@value #IDLE_SECONDS} s.
     *
     * @param concurrentCalls the most calls the function makes at once to one host
     */
    public static SdkHttpClient create(int concurrentCalls, Duration connectTimeout, Duration socketTimeout) {
        keepIdleConnections(concurrentCalls);
        keepIdleTime();
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

    /** Sets {@code http.keepAlive.time.server} to {@value #IDLE_SECONDS} unless it is set. */
    static synchronized void keepIdleTime() {
        if (System.getProperty(IDLE_TIME_PROPERTY) == null) {
            System.setProperty(IDLE_TIME_PROPERTY, Integer.toString(IDLE_SECONDS));
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
