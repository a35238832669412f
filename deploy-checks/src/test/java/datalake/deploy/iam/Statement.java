package datalake.deploy.iam;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One statement of a resolved policy document, and whether it applies to a {@link Request}: its
 * Principal or NotPrincipal (resource policies), Action or NotAction, Resource or NotResource (with IAM's
 * wildcards: {@code *} and {@code ?}, actions without regard to case), and Condition (String, Arn and Bool
 * operators, their negations and IfExists forms, and Null).
 *
 * @param json  the statement
 * @param where which policy holds it, for messages ("IngesterFunctionRole", "DataKey key policy")
 */
public record Statement(JsonNode json, String where) {
    private static final Pattern ACCOUNT_ROOT = Pattern.compile("arn:[a-z-]+:iam::[0-9]{12}:root");

    public boolean allows() {
        return json.path("Effect").asText().equals("Allow");
    }

    public String sid() {
        return json.path("Sid").asText("(no Sid)");
    }

    /** The statement's actions (or NotActions), as written. */
    public List<String> actions() {
        return texts(json.has("Action") ? json.get("Action") : json.get("NotAction"));
    }

    /** Principal, Action, Resource and Condition all match; a statement without Principal matches any. */
    public boolean appliesTo(Request request) {
        return principalMatches(request) && actionMatches(request.action()) && resourceMatches(request.resource())
                && conditionsHold(request);
    }

    /** Principal, Action and Resource match, whatever the conditions say. */
    public boolean appliesRegardlessOfConditions(Request request) {
        return principalMatches(request) && actionMatches(request.action()) && resourceMatches(request.resource());
    }

    public boolean actionMatches(String action) {
        if (json.has("NotAction")) {
            return texts(json.get("NotAction")).stream().noneMatch(a -> glob(a, action, true));
        }
        return texts(json.get("Action")).stream().anyMatch(a -> glob(a, action, true));
    }

    public boolean resourceMatches(String resource) {
        if (json.has("NotResource")) {
            return texts(json.get("NotResource")).stream().noneMatch(r -> glob(r, resource, false));
        }
        return texts(json.get("Resource")).stream().anyMatch(r -> glob(r, resource, false));
    }

    /** A statement of a resource policy (a bucket's, queue's, topic's or key's), which names its principals. */
    public boolean inResourcePolicy() {
        return json.has("Principal") || json.has("NotPrincipal");
    }

    /**
     * Whether a resource policy's statement names the request's principal only through its account (the
     * account id or its root ARN). Naming the account delegates to IAM: the statement allows only what the
     * principal's own identity policies allow too ("AWS JSON policy elements: Principal", AWS account
     * principals; "Policy evaluation logic").
     */
    public boolean delegatesToIam(Request request) {
        JsonNode principal = json.get("Principal");
        if (principal == null || principal.isTextual() || request.byService()) {
            return false;
        }
        List<String> named = texts(principal.get("AWS"));
        return !named.contains("*") && !named.contains(request.principal())
                && named.stream().anyMatch(aws -> namesAccount(aws, request.account()));
    }

    private boolean principalMatches(Request request) {
        JsonNode notPrincipal = json.get("NotPrincipal");
        if (notPrincipal != null) {
            return !exempted(notPrincipal, request);
        }
        JsonNode principal = json.get("Principal");
        if (principal == null) {
            return true; // an identity policy: its holder is the principal
        }
        if (principal.isTextual()) {
            return principal.asText().equals("*");
        }
        if (request.byService()) {
            return texts(principal.get("Service")).contains(request.principal());
        }
        for (String aws : texts(principal.get("AWS"))) {
            // An account, or its root, stands for every principal of the account (that its own policies
            // allow: Decision counts such an Allow only beside one of the principal's own, delegatesToIam).
            if (aws.equals("*") || aws.equals(request.principal()) || namesAccount(aws, request.account())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a NotPrincipal leaves the request's principal out of its statement (which then applies to
     * everyone else). A role or user is left out only when its account is named too: AWS may check the
     * account before the role or user, and a statement that does not name the account applies to all of it
     * ("AWS JSON policy elements: NotPrincipal").
     */
    private static boolean exempted(JsonNode notPrincipal, Request request) {
        if (notPrincipal.isTextual()) {
            return notPrincipal.asText().equals("*");
        }
        if (request.byService()) {
            return texts(notPrincipal.get("Service")).contains(request.principal());
        }
        List<String> named = texts(notPrincipal.get("AWS"));
        return named.contains("*") || (named.contains(request.principal())
                && named.stream().anyMatch(aws -> namesAccount(aws, request.account())));
    }

    /** An account id, or the account's root ARN in any partition. */
    private static boolean namesAccount(String aws, String account) {
        return !account.isEmpty() && (aws.equals(account)
                || (ACCOUNT_ROOT.matcher(aws).matches() && aws.split(":")[4].equals(account)));
    }

    private boolean conditionsHold(Request request) {
        JsonNode conditions = json.get("Condition");
        if (conditions == null) {
            return true;
        }
        for (Map.Entry<String, JsonNode> operator : conditions.properties()) {
            for (Map.Entry<String, JsonNode> key : operator.getValue().properties()) {
                if (!holds(operator.getKey(), value(request, key.getKey()), texts(key.getValue()))) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The condition keys a statement tests, for messages. */
    public List<String> conditionKeys() {
        List<String> keys = new ArrayList<>();
        json.path("Condition").forEach(operator -> operator.fieldNames().forEachRemaining(keys::add));
        return keys;
    }

    private static List<String> value(Request request, String key) {
        for (Map.Entry<String, List<String>> entry : request.context().entrySet()) {
            if (entry.getKey().equalsIgnoreCase(key)) {
                return entry.getValue();
            }
        }
        return null;
    }

    static boolean holds(String operator, List<String> actual, List<String> expected) {
        boolean ifExists = operator.endsWith("IfExists");
        String base = ifExists ? operator.substring(0, operator.length() - "IfExists".length()) : operator;
        if (base.equals("Null")) {
            // "true": the key is absent; "false": it is present (IAM guide, "IAM JSON policy elements:
            // Condition operators", condition operator to check existence of condition keys)
            return expected.stream().anyMatch(e -> Boolean.parseBoolean(e) == (actual == null));
        }
        if (actual == null) {
            return ifExists || base.contains("Not");
        }
        return switch (base) {
            case "StringEquals", "ArnEquals" -> anyPair(actual, expected, String::equals);
            case "StringEqualsIgnoreCase" -> anyPair(actual, expected, String::equalsIgnoreCase);
            case "StringLike", "ArnLike" -> anyPair(actual, expected, (a, e) -> glob(e, a, false));
            case "StringNotEquals", "ArnNotEquals" -> !anyPair(actual, expected, String::equals);
            case "StringNotLike", "ArnNotLike" -> !anyPair(actual, expected, (a, e) -> glob(e, a, false));
            case "Bool" -> anyPair(actual, expected, String::equalsIgnoreCase);
            default -> throw new IllegalArgumentException("the condition operator " + operator
                    + " is not evaluated here; add it to Statement.holds.");
        };
    }

    private static boolean anyPair(List<String> actual, List<String> expected,
            java.util.function.BiPredicate<String, String> test) {
        for (String a : actual) {
            for (String e : expected) {
                if (test.test(a, e)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** IAM's wildcards: {@code *} any run of characters, {@code ?} one. */
    static boolean glob(String pattern, String value, boolean ignoreCase) {
        StringBuilder regex = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            regex.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
        }
        Pattern compiled = ignoreCase ? Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE)
                : Pattern.compile(regex.toString());
        return compiled.matcher(ignoreCase ? value.toLowerCase(Locale.ROOT) : value).matches();
    }

    static List<String> texts(JsonNode node) {
        List<String> out = new ArrayList<>();
        if (node == null || node.isMissingNode()) {
            return out;
        }
        if (node.isArray()) {
            node.forEach(n -> out.add(n.asText()));
        } else {
            out.add(node.asText());
        }
        return out;
    }

    /** The statements of a policy document (one or a list). */
    public static List<Statement> of(JsonNode document, String where) {
        List<Statement> out = new ArrayList<>();
        JsonNode statements = document.path("Statement");
        if (statements.isArray()) {
            statements.forEach(s -> out.add(new Statement(s, where)));
        } else if (!statements.isMissingNode()) {
            out.add(new Statement(statements, where));
        }
        return out;
    }
}
