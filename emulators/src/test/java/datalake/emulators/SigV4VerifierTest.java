package datalake.emulators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The verifier against AWS's published Signature Version 4 test suite (get-vanilla and
 * get-vanilla-query-order-key-case: credentials AKIDEXAMPLE, 2015-08-30T12:36:00Z, service
 * "service"), and what it refuses.
 */
class SigV4VerifierTest {
    private static final String SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
    private static final Instant SIGNED_AT = Instant.parse("2015-08-30T12:36:00Z");
    private static final String VANILLA = "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            + "SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31";
    private static final String QUERY_ORDER = "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            + "SignedHeaders=host;x-amz-date, Signature=b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500";

    private static SigV4Verifier verifier(String secret, Instant now) {
        return new SigV4Verifier("AKIDEXAMPLE", secret, "us-east-1", "service", Clock.fixed(now, ZoneOffset.UTC));
    }

    private static Map<String, List<String>> headers(String authorization, String date) {
        return authorization == null
                ? Map.of("Host", List.of("example.amazonaws.com"), "X-Amz-Date", List.of(date))
                : Map.of("Host", List.of("example.amazonaws.com"), "X-Amz-Date", List.of(date),
                        "Authorization", List.of(authorization));
    }

    private static Optional<String> check(SigV4Verifier verifier, String uri, String authorization, String date) {
        return verifier.refusal("GET", URI.create(uri), headers(authorization, date), new byte[0]);
    }

    @Test
    void acceptsTheTestSuitesSignedRequests() {
        SigV4Verifier verifier = verifier(SECRET, SIGNED_AT.plusSeconds(60));

        assertEquals(Optional.empty(), check(verifier, "/", VANILLA, "20150830T123600Z"));
        assertEquals(Optional.empty(), check(verifier, "/?Param2=value2&Param1=value1", QUERY_ORDER, "20150830T123600Z"));
    }

    @Test
    void refusesAChangedRequestOrAnotherSecret() {
        SigV4Verifier verifier = verifier(SECRET, SIGNED_AT);

        assertTrue(check(verifier, "/other", VANILLA, "20150830T123600Z").orElseThrow().contains("does not match"));
        assertTrue(check(verifier, "/?Param2=value2&Param1=value0", QUERY_ORDER, "20150830T123600Z").isPresent());
        assertTrue(check(verifier(SECRET.replace('w', 'W'), SIGNED_AT), "/", VANILLA, "20150830T123600Z").isPresent());
        assertTrue(check(verifier, "/", VANILLA, "20150830T123601Z").isPresent(), "the signed date was changed");
    }

    @Test
    void refusesUnsignedExpiredAndForeignRequests() {
        assertTrue(check(verifier(SECRET, SIGNED_AT), "/", null, "20150830T123600Z").orElseThrow().contains("not signed"));
        assertTrue(check(verifier(SECRET, SIGNED_AT.plusSeconds(16 * 60)), "/", VANILLA, "20150830T123600Z")
                .orElseThrow().contains("expired"));
        assertTrue(check(verifier(SECRET, SIGNED_AT.minusSeconds(16 * 60)), "/", VANILLA, "20150830T123600Z").isPresent());
        SigV4Verifier otherKey = new SigV4Verifier("AKIDOTHER", SECRET, "us-east-1", "service", Clock.fixed(SIGNED_AT,
                ZoneOffset.UTC));
        assertTrue(check(otherKey, "/", VANILLA, "20150830T123600Z").orElseThrow().contains("another access key"));
        SigV4Verifier otherRegion = new SigV4Verifier("AKIDEXAMPLE", SECRET, "eu-west-1", "service",
                Clock.fixed(SIGNED_AT, ZoneOffset.UTC));
        assertTrue(check(otherRegion, "/", VANILLA, "20150830T123600Z").isPresent());
        assertTrue(check(verifier(SECRET, SIGNED_AT), "/", "Bearer abc", "20150830T123600Z").isPresent());
    }
}
