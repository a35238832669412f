package datalake.emulators;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.signer.Aws4Signer;
import software.amazon.awssdk.auth.signer.params.Aws4SignerParams;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.regions.Region;

/**
 * Checks AWS Signature Version 4 on a request as API Gateway's IAM authorisation does, for one set of
 * credentials: the request is signed again, from what it names as signed, with the AWS SDK for Java's
 * own signer ({@link Aws4Signer}) at the time it claims, and the signatures must be equal. So a
 * client's signer (botocore, in the Python package) is checked by an independent implementation.
 *
 * <p>Why the SDK's classic {@code Aws4Signer}, deprecated in favour of {@code AwsV4HttpSigner}: the
 * newer signer always adds and signs {@code x-amz-content-sha256}, which API Gateway does not require
 * and botocore's execute-api signatures do not carry, so it could never reproduce theirs; the classic
 * signer signs exactly the headers it is given, which is the check API Gateway makes.
 *
 * <p>Refused: no or another kind of {@code Authorization}, another access key, region or service, a
 * date more than 15 minutes from now (API Gateway's window), unsigned {@code host} or
 * {@code x-amz-date}, and any signature mismatch. Only header signatures are supported (no
 * presigned query strings), and the payload is signed as given (GET requests have none).
 */
public final class SigV4Verifier {
    private static final String ALGORITHM = "AWS4-HMAC-SHA256";
    private static final Pattern AUTHORIZATION = Pattern.compile(
            "AWS4-HMAC-SHA256\\s+Credential=([^/,\\s]+)/(\\d{8})/([^/,\\s]+)/([^/,\\s]+)/aws4_request\\s*,\\s*"
                    + "SignedHeaders=([a-z0-9;_.-]+)\\s*,\\s*Signature=([0-9a-f]{64})\\s*");
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT);
    /** How far a signature's time may be from the server's clock, either way. */
    static final Duration WINDOW = Duration.ofMinutes(15);

    private final String accessKeyId;
    private final String secretAccessKey;
    private final String region;
    private final String service;
    private final Clock clock;
    @SuppressWarnings("deprecation")
    private final Aws4Signer signer = Aws4Signer.create();

    public SigV4Verifier(String accessKeyId, String secretAccessKey, String region, String service, Clock clock) {
        this.accessKeyId = accessKeyId;
        this.secretAccessKey = secretAccessKey;
        this.region = region;
        this.service = service;
        this.clock = clock;
    }

    /** The emulators' credentials ({@link Emulators#ACCESS_KEY_ID}), their region, service {@code execute-api}. */
    public static SigV4Verifier forLocalApi() {
        return new SigV4Verifier(Emulators.ACCESS_KEY_ID, Emulators.SECRET_ACCESS_KEY, Emulators.REGION.id(),
                "execute-api", Clock.systemUTC());
    }

    public String accessKeyId() {
        return accessKeyId;
    }

    public String region() {
        return region;
    }

    /**
     * Why the request is refused, or empty when these credentials signed it.
     *
     * @param rawUri  the request's path and query as sent (still percent-encoded)
     * @param headers its headers, names in any case
     * @param body    its body (empty for none)
     */
    public Optional<String> refusal(String method, URI rawUri, Map<String, List<String>> headers, byte[] body) {
        return refusal(method, rawUri.getRawPath(), rawUri.getRawQuery(), headers, body);
    }

    /**
     * {@link #refusal(String, URI, Map, byte[])} of a request target as sent, which need not be a valid
     * URI (a malformed percent escape is the API's to answer, after the signature).
     *
     * @param rawPath  the path as sent
     * @param rawQuery the query as sent, without its {@code ?}; null or empty for none
     */
    public Optional<String> refusal(String method, String rawPath, String rawQuery, Map<String, List<String>> headers,
            byte[] body) {
        Map<String, String> lower = new LinkedHashMap<>();
        headers.forEach((name, values) -> lower.merge(name.toLowerCase(Locale.ROOT), String.join(",", values),
                (a, b) -> a + "," + b));
        String authorization = lower.get("authorization");
        if (authorization == null) {
            return Optional.of("the request is not signed (no Authorization header)");
        }
        Matcher m = AUTHORIZATION.matcher(authorization.strip());
        if (!m.matches()) {
            return Optional.of("the Authorization header is not an " + ALGORITHM + " signature");
        }
        if (!m.group(1).equals(accessKeyId)) {
            return Optional.of("the request is signed with another access key than the API's");
        }
        if (!m.group(3).equals(region) || !m.group(4).equals(service)) {
            return Optional.of("the request is signed for " + m.group(4) + " in " + m.group(3) + ", not " + service
                    + " in " + region);
        }
        List<String> signedHeaders = Arrays.asList(m.group(5).split(";"));
        if (!signedHeaders.contains("host") || !signedHeaders.contains("x-amz-date")) {
            return Optional.of("the signature does not cover the host and x-amz-date headers");
        }
        Instant signedAt;
        try {
            signedAt = LocalDateTime.parse(lower.getOrDefault("x-amz-date", ""), AMZ_DATE).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            return Optional.of("the x-amz-date header is not a time like 20260101T000000Z");
        }
        if (!m.group(2).equals(lower.get("x-amz-date").substring(0, 8))) {
            return Optional.of("the credential scope's date is not the x-amz-date's");
        }
        if (Duration.between(signedAt, clock.instant()).abs().compareTo(WINDOW) > 0) {
            return Optional.of("the signature expired: signed at " + signedAt + ", more than " + WINDOW.toMinutes()
                    + " minutes from now");
        }
        Optional<String> expected;
        try {
            expected = signature(method, rawPath, rawQuery, lower, signedHeaders, signedAt, body);
        } catch (IllegalArgumentException e) {
            return Optional.of("the request cannot be put in SigV4's canonical form (its host or method)");
        }
        if (expected.isEmpty()) {
            return Optional.of("the signed headers are missing from the request");
        }
        return MessageDigest.isEqual(expected.get().getBytes(StandardCharsets.US_ASCII),
                m.group(6).getBytes(StandardCharsets.US_ASCII))
                ? Optional.empty()
                : Optional.of("the signature does not match the request (wrong secret key, or a changed request)");
    }

    /** The Authorization header's Signature that the SDK's signer computes for the signed parts of the request. */
    private Optional<String> signature(String method, String rawPath, String rawQuery, Map<String, String> headers,
            List<String> signedHeaders, Instant signedAt, byte[] body) {
        String host = headers.get("host");
        if (host == null) {
            return Optional.empty();
        }
        URI origin = URI.create("http://" + host);
        SdkHttpFullRequest.Builder request = SdkHttpFullRequest.builder()
                .method(SdkHttpMethod.fromValue(method.toUpperCase(Locale.ROOT)))
                .protocol("http")
                .host(origin.getHost())
                .port(origin.getPort() < 0 ? 80 : origin.getPort())
                .encodedPath(rawPath == null || rawPath.isEmpty() ? "/" : rawPath);
        for (Map.Entry<String, List<String>> parameter : queryParameters(rawQuery).entrySet()) {
            request.putRawQueryParameter(parameter.getKey(), parameter.getValue());
        }
        for (String name : signedHeaders) {
            String value = headers.get(name);
            if (value == null) {
                return Optional.empty();
            }
            if (!name.equals("host")) {
                request.putHeader(name, value);
            }
        }
        if (body.length > 0) {
            request.contentStreamProvider(RequestBody.fromBytes(body).contentStreamProvider());
        }
        String authorization = sign(request.build(), signedAt).firstMatchingHeader("Authorization").orElse("");
        int at = authorization.indexOf("Signature=");
        return at < 0 ? Optional.empty() : Optional.of(authorization.substring(at + "Signature=".length()).strip());
    }

    @SuppressWarnings("deprecation")
    private SdkHttpFullRequest sign(SdkHttpFullRequest request, Instant signedAt) {
        return signer.sign(request, Aws4SignerParams.builder()
                .awsCredentials(AwsBasicCredentials.create(accessKeyId, secretAccessKey))
                .signingName(service)
                .signingRegion(Region.of(region))
                .signingClockOverride(Clock.fixed(signedAt, ZoneOffset.UTC))
                .build());
    }

    /** Names and values percent-decoded, in order; the signer encodes them again as SigV4 wants. */
    static Map<String, List<String>> queryParameters(String rawQuery) {
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        QueryStrings.forEachPair(rawQuery, SigV4Verifier::percentDecode,
                (name, value) -> parameters.computeIfAbsent(name, k -> new ArrayList<>()).add(value));
        return parameters;
    }

    /** RFC 3986 decoding: {@code %XX} only ({@code +} stays a plus, as SigV4 canonicalises it). */
    private static String percentDecode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length() && Character.digit(s.charAt(i + 1), 16) >= 0
                    && Character.digit(s.charAt(i + 2), 16) >= 0) {
                bytes.write(Character.digit(s.charAt(i + 1), 16) * 16 + Character.digit(s.charAt(i + 2), 16));
                i += 2;
            } else {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
