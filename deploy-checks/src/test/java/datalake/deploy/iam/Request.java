package datalake.deploy.iam;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One request as IAM evaluates it.
 *
 * @param principal   who asks: an IAM ARN ("arn:aws:iam::123456789012:role/x"), or a service principal
 *                    ("s3.amazonaws.com")
 * @param action      "service:Action", e.g. "s3:GetObject"
 * @param resource    the resource's ARN
 * @param context     the request's condition keys and their values ("kms:ViaService" → ["sns.us-east-1.amazonaws.com"]);
 *                    a key the request does not carry is absent
 */
public record Request(String principal, String action, String resource, Map<String, List<String>> context) {
    public Request {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(resource, "resource");
        context = Map.copyOf(context);
    }

    public boolean byService() {
        return !principal.startsWith("arn:");
    }

    /** The account of an IAM principal's ARN ("" for a service). */
    public String account() {
        return byService() ? "" : principal.split(":")[4];
    }
}
