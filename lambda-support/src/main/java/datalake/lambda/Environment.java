package datalake.lambda;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The one reader of the functions' configuration: the variables of {@link EnvironmentVariable} from
 * a map (the process environment in Lambda, a map of the same names in the runner and the tests).
 * Every rule is here once, and every bad value is a {@link ConfigurationException} whose one sentence
 * names the variable. Blank values count as unset; values are stripped.
 */
public final class Environment {
    /** The SDK's own endpoint overrides; they only decide the default of DATALAKE_S3_PATH_STYLE here. */
    static final String ENDPOINT_URL = "AWS_ENDPOINT_URL";
    static final String ENDPOINT_URL_S3 = "AWS_ENDPOINT_URL_S3";
    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

    private final Map<String, String> values;

    private Environment(Map<String, String> values) {
        this.values = Map.copyOf(values);
    }

    public static Environment of(Map<String, String> values) {
        return new Environment(values);
    }

    /** The process environment. */
    public static Environment system() {
        return new Environment(System.getenv());
    }

    /** Every variable, as given (credentials and the SDK's settings included). */
    public Map<String, String> values() {
        return values;
    }

    /** The value, or null when unset or blank. */
    public String get(EnvironmentVariable variable) {
        return get(variable.key());
    }

    /** The value of a variable outside the catalogue (the SDK's own), or null when unset or blank. */
    public String get(String name) {
        String value = values.get(name);
        return value == null || value.isBlank() ? null : value.strip();
    }

    public String require(EnvironmentVariable variable) {
        String value = get(variable);
        if (value == null) {
            throw new ConfigurationException(variable.key() + " is not set; set it to " + variable.meaning() + ".");
        }
        return value;
    }

    /** AWS_REGION: every client needs it, and Lambda always sets it. */
    public String region() {
        return require(EnvironmentVariable.REGION);
    }

    /** A whole number of at least 1, or {@code fallback} when unset. */
    public int positive(EnvironmentVariable variable, int fallback) {
        Integer value = number(variable, 1, "a whole number of at least 1");
        return value == null ? fallback : value;
    }

    /** A whole number of at least 1; unset or 0 (which template.yaml uses for "off") is null. */
    public Integer positiveOrOff(EnvironmentVariable variable) {
        Integer value = number(variable, 0, "a whole number of at least 1, or 0 for none");
        return value == null || value == 0 ? null : value;
    }

    /** The bucket of an {@code s3://<bucket>} URL (a trailing slash allowed), or null when unset. */
    public String bucket(EnvironmentVariable variable) {
        String value = get(variable);
        if (value == null) {
            return null;
        }
        String bucket = value.startsWith("s3://") ? stripTrailingSlashes(value.substring(5)) : "";
        if (!BUCKET.matcher(bucket).matches()) {
            throw invalid(variable, "s3://<bucket>", value);
        }
        return bucket;
    }

    /** An SNS topic ARN, or null when unset. */
    public String topicArn(EnvironmentVariable variable) {
        String value = get(variable);
        if (value != null && !value.startsWith("arn:")) {
            throw invalid(variable, "an SNS topic ARN (arn:aws:sns:...)", value);
        }
        return value;
    }

    /** An SQS queue URL (http or https, with a host), or null when unset. */
    public String queueUrl(EnvironmentVariable variable) {
        String value = get(variable);
        if (value == null) {
            return null;
        }
        try {
            URI uri = new URI(value);
            if (("https".equals(uri.getScheme()) || "http".equals(uri.getScheme())) && uri.getHost() != null) {
                return value;
            }
        } catch (URISyntaxException e) {
            // falls through to the one sentence below
        }
        throw invalid(variable, "an SQS queue URL (https://sqs.<region>.amazonaws.com/<account>/<queue>)", value);
    }

    /**
     * The base of URLs handed out (DATALAKE_HTTP_URL): an absolute http or https URL with a host and no
     * query or fragment, since paths are appended to it; trailing slashes dropped. Null when unset.
     */
    public String baseUrl(EnvironmentVariable variable) {
        String value = get(variable);
        if (value == null) {
            return null;
        }
        try {
            URI uri = new URI(value);
            if (("https".equalsIgnoreCase(uri.getScheme()) || "http".equalsIgnoreCase(uri.getScheme()))
                    && uri.getHost() != null && uri.getRawQuery() == null && uri.getRawFragment() == null) {
                return stripTrailingSlashes(value);
            }
        } catch (URISyntaxException e) {
            // falls through to the one sentence below
        }
        throw invalid(variable, "an absolute http or https URL without query or fragment, the base of the links it"
                + " is for (https://datalake.example.com/lake)", value);
    }

    /**
     * DATALAKE_S3_PATH_STYLE: {@code true} or {@code false} (any case); when unset, true exactly when an
     * S3 endpoint is overridden (AWS_ENDPOINT_URL or AWS_ENDPOINT_URL_S3), since emulators such as moto
     * serve buckets on paths while AWS itself prefers virtual-hosted names.
     */
    public boolean s3PathStyle() {
        String value = get(EnvironmentVariable.S3_PATH_STYLE);
        if (value == null) {
            return get(ENDPOINT_URL) != null || get(ENDPOINT_URL_S3) != null;
        }
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid(EnvironmentVariable.S3_PATH_STYLE, "true or false", value);
        };
    }

    private Integer number(EnvironmentVariable variable, int min, String expected) {
        String value = get(variable);
        if (value == null) {
            return null;
        }
        try {
            int parsed = Integer.parseInt(value);
            if (parsed >= min) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // falls through to the one sentence below
        }
        throw invalid(variable, expected, value);
    }

    private static ConfigurationException invalid(EnvironmentVariable variable, String expected, String value) {
        return new ConfigurationException(variable.key() + " must be " + expected + ", not \"" + value + "\".");
    }

    static String stripTrailingSlashes(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '/') {
            end--;
        }
        return s.substring(0, end);
    }
}
