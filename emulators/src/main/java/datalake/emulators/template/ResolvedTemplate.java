package datalake.emulators.template;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Stream;

/**
 * The values of a stack built from a {@link Template}, as CloudFormation computes them: parameters (the
 * template's defaults, overridden as with {@code sam deploy --parameter-overrides}, checked against their
 * constraints), the template's Rules, its conditions, pseudo parameters, and the intrinsic functions
 * (Ref, Fn::GetAtt, Fn::Sub, Fn::Join, Fn::Select, Fn::Split, Fn::If, Fn::Equals, Fn::Not, Fn::And,
 * Fn::Or, Fn::Base64, Fn::FindInMap, AWS::NoValue, and in Rules only Fn::Contains). A stack whose
 * resources depend on each other in a circle is refused, as CloudFormation refuses it. A resource's Ref
 * and attributes follow the conventions of {@link PhysicalIds} (names from the template, ARNs in the
 * stack's account and region), unless a value known from an emulator is given ({@link #with}: SQS queue
 * URLs).
 *
 * <p>Its values never change once built (conditions are cached as they are first read, under a lock);
 * {@link #with} returns a copy.
 */
public final class ResolvedTemplate {
    /** Removes the key or list element that holds it, as {@code Ref: AWS::NoValue} does. */
    private static final JsonNode NO_VALUE = new TextNode("AWS::NoValue");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Pattern SUB_VARIABLE = Pattern.compile("\\$\\{([^}]*)}");

    private final Template template;
    private final Map<String, JsonNode> parameters;
    private final Map<String, JsonNode> pseudo;
    private final Map<String, JsonNode> known;
    private final Map<String, Boolean> conditions = new HashMap<>();
    private final Set<String> evaluating = new HashSet<>();
    /** Set only while build() checks the rules, before the stack is shared: Fn::Contains is refused elsewhere. */
    private boolean inRule;

    private ResolvedTemplate(Template template, Map<String, JsonNode> parameters, Map<String, JsonNode> pseudo,
            Map<String, JsonNode> known) {
        this.template = template;
        this.parameters = parameters;
        this.pseudo = pseudo;
        this.known = known;
    }

    static Builder builder(Template template) {
        return new Builder(template);
    }

    public Template template() {
        return template;
    }

    /** A parameter's value: its override, else its default. */
    public String parameter(String name) {
        JsonNode value = parameters.get(name);
        if (value == null) {
            throw new TemplateException("the template declares no parameter " + name + ".");
        }
        return text(value);
    }

    /** Every parameter's value, by name (a list parameter's as the comma-separated text it was given as). */
    public Map<String, String> parameters() {
        Map<String, String> out = new LinkedHashMap<>();
        parameters.forEach((name, value) -> out.put(name, value.isArray()
                ? String.join(",", value.valueStream().map(ResolvedTemplate::text).toList()) : text(value)));
        return Collections.unmodifiableMap(out);
    }

    /** AWS::AccountId, AWS::Region, AWS::Partition, AWS::URLSuffix, AWS::StackName. */
    public String pseudoParameter(String name) {
        JsonNode value = pseudo.get(name);
        if (value == null) {
            throw new TemplateException("no pseudo parameter " + name + " is known locally.");
        }
        return text(value);
    }

    public String accountId() {
        return pseudoParameter("AWS::AccountId");
    }

    public String region() {
        return pseudoParameter("AWS::Region");
    }

    public synchronized boolean condition(String name) {
        Boolean known = conditions.get(name);
        if (known != null) {
            return known;
        }
        JsonNode definition = template.conditions().get(name);
        if (definition == null) {
            throw new TemplateException("the template declares no condition " + name + ".");
        }
        if (!evaluating.add(name)) {
            throw new TemplateException("the condition " + name + " depends on itself.");
        }
        try {
            boolean value = bool(resolve(definition, true), "condition " + name);
            conditions.put(name, value);
            return value;
        } finally {
            evaluating.remove(name);
        }
    }

    /** Whether the resource is part of the stack (its condition, if any, holds). */
    public boolean exists(String logicalId) {
        Template.Resource resource = template.resource(logicalId);
        return resource.condition().map(this::condition).orElse(true);
    }

    /** The resource's properties with every function resolved (an empty object when it has none). */
    public ObjectNode properties(String logicalId) {
        Template.Resource resource = live(logicalId);
        JsonNode resolved = resolve(resource.properties());
        return resolved.isObject() ? (ObjectNode) resolved : NODES.objectNode();
    }

    /** {@code Ref: logicalId}, as text (a name, an ARN or a URL, by type). */
    public String ref(String logicalId) {
        return text(resolve(NODES.objectNode().put("Ref", logicalId)));
    }

    /** {@code Fn::GetAtt: [logicalId, attribute]}, as text. */
    public String getAtt(String logicalId, String attribute) {
        return text(getAttNode(logicalId, attribute));
    }

    /** The outputs whose condition holds, resolved. */
    public Map<String, String> outputs() {
        Map<String, String> out = new LinkedHashMap<>();
        template.outputs().properties().forEach(e -> {
            JsonNode condition = e.getValue().get("Condition");
            if (condition == null || condition(condition.asText())) {
                out.put(e.getKey(), text(resolve(e.getValue().path("Value"))));
            }
        });
        return Collections.unmodifiableMap(out);
    }

    /**
     * This stack with a value learnt from an emulator: {@code with("IngestQueue", null, url)} sets the
     * Ref, {@code with("IngestQueue", "QueueUrl", url)} an attribute.
     */
    public ResolvedTemplate with(String logicalId, String attribute, String value) {
        Map<String, JsonNode> more = new HashMap<>(known);
        more.put(attribute == null ? logicalId : logicalId + "." + attribute, new TextNode(value));
        return new ResolvedTemplate(template, parameters, pseudo, Collections.unmodifiableMap(more));
    }

    /** A value of the template (a property, a policy document, an output) with every function resolved. */
    public JsonNode resolve(JsonNode node) {
        return resolve(node, false);
    }

    /** A rule's condition or assertion: the one place CloudFormation runs its rule functions (Fn::Contains). */
    private JsonNode resolveRule(JsonNode node) {
        inRule = true;
        try {
            return resolve(node, false);
        } finally {
            inRule = false;
        }
    }

    /**
     * {@code inCondition}: inside a condition's definition (and the operands of its Fn::And, Fn::Or,
     * Fn::Not), the only place CloudFormation reads {@code {"Condition": name}} as a reference to another
     * condition. Elsewhere a one-key object named Condition is data (a property, a policy's key).
     */
    private JsonNode resolve(JsonNode node, boolean inCondition) {
        if (node == null || node.isMissingNode()) {
            return node;
        }
        if (node.isObject()) {
            if (node.size() == 1) {
                String key = node.fieldNames().next();
                if (key.equals("Ref") || key.startsWith("Fn::") || (inCondition && key.equals("Condition"))) {
                    return function(key, node.get(key), inCondition);
                }
            }
            ObjectNode out = NODES.objectNode();
            node.properties().forEach(e -> {
                JsonNode value = resolve(e.getValue());
                if (!isNoValue(value)) {
                    out.set(e.getKey(), value);
                }
            });
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = NODES.arrayNode();
            for (JsonNode element : node) {
                JsonNode value = resolve(element);
                if (!isNoValue(value)) {
                    out.add(value);
                }
            }
            return out;
        }
        return node;
    }

    /** The sentinel is told by identity: a text "AWS::NoValue" in a template is text. */
    @SuppressWarnings("ReferenceEquality")
    private static boolean isNoValue(JsonNode value) {
        return value == NO_VALUE;
    }

    private JsonNode function(String name, JsonNode argument, boolean inCondition) {
        return switch (name) {
            case "Ref" -> refNode(argument.asText());
            case "Condition" -> BooleanNode.valueOf(condition(argument.asText()));
            case "Fn::GetAtt" -> getAtt(argument);
            case "Fn::Sub" -> sub(argument);
            case "Fn::Join" -> {
                JsonNode list = resolve(argument.get(1));
                StringBuilder joined = new StringBuilder();
                for (int i = 0; i < list.size(); i++) {
                    joined.append(i == 0 ? "" : text(resolve(argument.get(0)))).append(text(list.get(i)));
                }
                yield new TextNode(joined.toString());
            }
            case "Fn::Select" -> {
                int index = Integer.parseInt(text(resolve(argument.get(0))));
                JsonNode list = resolve(argument.get(1));
                if (index < 0 || index >= list.size()) {
                    throw new TemplateException("Fn::Select index " + index + " is outside a list of " + list.size() + ".");
                }
                yield list.get(index);
            }
            case "Fn::Split" -> {
                ArrayNode parts = NODES.arrayNode();
                String delimiter = text(resolve(argument.get(0)));
                for (String part : text(resolve(argument.get(1))).split(Pattern.quote(delimiter), -1)) {
                    parts.add(part);
                }
                yield parts;
            }
            case "Fn::If" -> resolve(condition(argument.get(0).asText()) ? argument.get(1) : argument.get(2));
            case "Fn::Equals" -> BooleanNode.valueOf(text(resolve(argument.get(0))).equals(text(resolve(argument.get(1)))));
            case "Fn::Not" -> BooleanNode.valueOf(!bool(resolve(argument.get(0), inCondition), "Fn::Not"));
            case "Fn::And" -> {
                boolean all = true;
                for (JsonNode operand : argument) {
                    all &= bool(resolve(operand, inCondition), "Fn::And");
                }
                yield BooleanNode.valueOf(all);
            }
            case "Fn::Or" -> {
                boolean any = false;
                for (JsonNode operand : argument) {
                    any |= bool(resolve(operand, inCondition), "Fn::Or");
                }
                yield BooleanNode.valueOf(any);
            }
            case "Fn::Contains" -> {
                if (!inRule) {
                    throw new TemplateException("Fn::Contains is a rule function, which CloudFormation runs only in the"
                            + " template's Rules (used in " + argument + ").");
                }
                String wanted = text(resolve(argument.get(1)));
                for (JsonNode element : resolve(argument.get(0))) {
                    if (text(element).equals(wanted)) {
                        yield BooleanNode.TRUE;
                    }
                }
                yield BooleanNode.FALSE;
            }
            case "Fn::Base64" -> new TextNode(Base64.getEncoder().encodeToString(
                        text(resolve(argument)).getBytes(StandardCharsets.UTF_8)));
            case "Fn::FindInMap" -> {
                JsonNode value = template.json().path("Mappings").path(text(resolve(argument.get(0))))
                        .path(text(resolve(argument.get(1)))).path(text(resolve(argument.get(2))));
                if (value.isMissingNode()) {
                    throw new TemplateException("Fn::FindInMap " + argument + " finds nothing in the Mappings.");
                }
                yield value;
            }
            default ->
                throw new TemplateException(name + " is not resolved locally (used in " + argument + ").");
        };
    }

    private JsonNode refNode(String name) {
        if (name.equals("AWS::NoValue")) {
            return NO_VALUE;
        }
        JsonNode value = parameters.get(name);
        if (value == null) {
            value = pseudo.get(name);
        }
        if (value != null) {
            return value;
        }
        JsonNode learnt = known.get(name);
        if (learnt != null) {
            return learnt;
        }
        return PhysicalIds.ref(this, live(name));
    }

    private JsonNode getAtt(JsonNode argument) {
        String logicalId;
        String attribute;
        if (argument.isTextual()) {
            int dot = argument.asText().indexOf('.');
            logicalId = argument.asText().substring(0, dot);
            attribute = argument.asText().substring(dot + 1);
        } else {
            logicalId = argument.get(0).asText();
            attribute = text(resolve(argument.get(1)));
        }
        return getAttNode(logicalId, attribute);
    }

    private JsonNode getAttNode(String logicalId, String attribute) {
        JsonNode learnt = known.get(logicalId + "." + attribute);
        if (learnt != null) {
            return learnt;
        }
        return PhysicalIds.getAtt(this, live(logicalId), attribute);
    }

    private JsonNode sub(JsonNode argument) {
        String text;
        Map<String, JsonNode> variables = new HashMap<>();
        if (argument.isArray()) {
            text = argument.get(0).asText();
            argument.get(1).properties().forEach(e -> variables.put(e.getKey(), resolve(e.getValue())));
        } else {
            text = argument.asText();
        }
        Matcher matcher = SUB_VARIABLE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            String variable = matcher.group(1);
            String replacement;
            if (variable.startsWith("!")) {
                replacement = "${" + variable.substring(1) + "}";
            } else if (variables.containsKey(variable)) {
                replacement = text(variables.get(variable));
            } else if (variable.contains(".") && !variable.startsWith("AWS::")) {
                int dot = variable.indexOf('.');
                replacement = text(getAttNode(variable.substring(0, dot), variable.substring(dot + 1)));
            } else {
                replacement = text(refNode(variable));
            }
            matcher.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        matcher.appendTail(out);
        return new TextNode(out.toString());
    }

    /**
     * CloudFormation refuses a stack whose resources depend on each other in a circle (through Ref,
     * Fn::GetAtt, Fn::Sub or DependsOn) before it creates anything; resolving one would never end.
     */
    private void checkNoCircularDependency() {
        Map<String, Set<String>> needs = new LinkedHashMap<>();
        template.resources().forEach((id, resource) -> {
            if (exists(id)) {
                Set<String> named = new LinkedHashSet<>();
                JsonNode dependsOn = resource.json().path("DependsOn");
                (dependsOn.isArray() ? dependsOn.valueStream() : Stream.of(dependsOn))
                        .filter(JsonNode::isTextual).forEach(d -> named.add(d.asText()));
                resourcesNamed(resource.properties(), named);
                resourcesNamed(resource.json().path("Metadata"), named);
                named.retainAll(template.resources().keySet());
                needs.put(id, named);
            }
        });
        Set<String> done = new HashSet<>();
        for (String id : needs.keySet()) {
            List<String> circle = circleFrom(id, needs, new ArrayList<>(), done);
            if (circle != null) {
                throw new TemplateException("the resources " + String.join(" -> ", circle)
                        + " depend on each other in a circle, which CloudFormation refuses.");
            }
        }
    }

    /** A circle of dependencies reachable from {@code id}, as the path that closes it; null if there is none. */
    private static List<String> circleFrom(String id, Map<String, Set<String>> needs, List<String> path, Set<String> done) {
        int seen = path.indexOf(id);
        if (seen >= 0) {
            List<String> circle = new ArrayList<>(path.subList(seen, path.size()));
            circle.add(id);
            return circle;
        }
        if (!done.add(id)) {
            return null;
        }
        path.add(id);
        for (String needed : needs.getOrDefault(id, Set.of())) {
            List<String> circle = circleFrom(needed, needs, path, done);
            if (circle != null) {
                return circle;
            }
        }
        path.remove(path.size() - 1);
        return null;
    }

    /** The names a value refers to (Ref, Fn::GetAtt, Fn::Sub's variables), in the branches of Fn::If taken. */
    private void resourcesNamed(JsonNode node, Set<String> into) {
        if (node.isArray()) {
            node.forEach(element -> resourcesNamed(element, into));
            return;
        }
        if (!node.isObject()) {
            return;
        }
        JsonNode argument = node.size() == 1 ? node.elements().next() : null;
        String function = argument == null ? "" : node.fieldNames().next();
        switch (function) {
            case "Ref" -> into.add(argument.asText());
            case "Fn::GetAtt" -> into.add(argument.isArray() ? argument.path(0).asText()
                    : argument.asText().substring(0, Math.max(0, argument.asText().indexOf('.'))));
            case "Fn::If" -> resourcesNamed(argument.path(condition(argument.path(0).asText()) ? 1 : 2), into);
            case "Fn::Sub" -> {
                JsonNode variables = argument.path(1);
                Matcher matcher = SUB_VARIABLE.matcher(argument.isArray() ? argument.path(0).asText() : argument.asText());
                while (matcher.find()) {
                    String name = matcher.group(1).split("\\.", 2)[0];
                    if (!name.startsWith("!") && !variables.has(name)) {
                        into.add(name);
                    }
                }
                resourcesNamed(variables, into);
            }
            default -> node.forEach(value -> resourcesNamed(value, into));
        }
    }

    /** The resource, which must exist: a Ref to a resource whose condition is false fails as in CloudFormation. */
    Template.Resource live(String logicalId) {
        Template.Resource resource = template.resources().get(logicalId);
        if (resource == null) {
            throw new TemplateException("Ref or Fn::GetAtt names " + logicalId
                    + ", which is neither a parameter, a pseudo parameter nor a resource.");
        }
        if (!exists(logicalId)) {
            throw new TemplateException("the resource " + logicalId + " is used, but its condition "
                    + resource.condition().orElseThrow() + " is false.");
        }
        return resource;
    }

    /** A scalar as CloudFormation passes it to a property: a string. */
    public static String text(JsonNode value) {
        if (value == null || value.isMissingNode() || value.isNull()) {
            throw new TemplateException("a value is missing where text is needed.");
        }
        if (value.isContainerNode()) {
            throw new TemplateException("a list or object is used where text is needed: " + value);
        }
        return value.asText();
    }

    private static boolean bool(JsonNode value, String where) {
        if (value.isBoolean()) {
            return value.booleanValue();
        }
        String text = text(value);
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(text);
        }
        throw new TemplateException(where + " is not true or false: " + value);
    }

    /** How a stack of a template is made: parameter overrides and the pseudo parameters of its account. */
    public static final class Builder {
        private final Template template;
        private final Map<String, String> overrides = new LinkedHashMap<>();
        private String accountId;
        private String region;
        private String stackName;

        /** Starts from the deployment the template was transformed for. */
        private Builder(Template template) {
            this.template = template;
            SamTransform.Deployment deployment = template.deployment();
            this.overrides.putAll(deployment.parameters());
            this.accountId = deployment.accountId();
            this.region = deployment.region();
            this.stackName = deployment.stackName();
        }

        /** A parameter's value, as {@code --parameter-overrides Name=Value}. */
        public Builder parameter(String name, String value) {
            overrides.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
            return this;
        }

        public Builder parameters(Map<String, String> values) {
            values.forEach(this::parameter);
            return this;
        }

        /** The account and region of AWS::AccountId and AWS::Region (moto's: 123456789012, us-east-1). */
        public Builder account(String accountId, String region) {
            this.accountId = Objects.requireNonNull(accountId, "accountId");
            this.region = Objects.requireNonNull(region, "region");
            return this;
        }

        public Builder stackName(String name) {
            this.stackName = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * Checks the parameters against their declarations and the template's Rules, as CloudFormation does
         * before it creates anything.
         *
         * @throws TemplateException naming the parameter or rule that fails
         */
        public ResolvedTemplate build() {
            for (String name : overrides.keySet()) {
                if (!this.template.parameters().has(name)) {
                    throw new TemplateException("the template has no parameter " + name + " to override.");
                }
            }
            // Checked before the transform, as CloudFormation does: a refused value never reaches the translator.
            Map<String, JsonNode> values = new LinkedHashMap<>();
            this.template.parameters().properties().forEach(e -> values.put(e.getKey(),
                    parameterValue(e.getKey(), e.getValue(), overrides.get(e.getKey()))));
            // The SAM transform of these very parameters, account, region and stack name, as CloudFormation runs it.
            Template template = this.template.forDeployment(
                    new SamTransform.Deployment(stackName, accountId, region, overrides));
            Map<String, JsonNode> pseudo = new HashMap<>();
            pseudo.put("AWS::AccountId", new TextNode(accountId));
            pseudo.put("AWS::Region", new TextNode(region));
            String partition = region.startsWith("cn-") ? "aws-cn" : region.startsWith("us-gov-") ? "aws-us-gov" : "aws";
            pseudo.put("AWS::Partition", new TextNode(partition));
            pseudo.put("AWS::URLSuffix", new TextNode(region.startsWith("cn-") ? "amazonaws.com.cn" : "amazonaws.com"));
            pseudo.put("AWS::StackName", new TextNode(stackName));
            pseudo.put("AWS::StackId", new TextNode("arn:" + partition + ":cloudformation:" + region + ":" + accountId + ":stack/"
                    + stackName + "/local"));
            pseudo.put("AWS::NotificationARNs", NODES.arrayNode());
            ResolvedTemplate resolved = new ResolvedTemplate(template, Collections.unmodifiableMap(values),
                    Collections.unmodifiableMap(pseudo), Map.of());
            checkRules(resolved);
            resolved.checkNoCircularDependency();
            return resolved;
        }

        private static JsonNode parameterValue(String name, JsonNode declaration, String override) {
            String value = override;
            if (value == null) {
                JsonNode fallback = declaration.get("Default");
                if (fallback == null) {
                    throw new TemplateException("the parameter " + name + " has no default; give it a value.");
                }
                value = fallback.asText();
            }
            String type = declaration.path("Type").asText("String");
            String constraint = declaration.path("ConstraintDescription").asText("");
            String why = constraint.isEmpty() ? "" : " (" + constraint + ")";
            boolean list = type.equals("CommaDelimitedList") || type.startsWith("List<");
            // CloudFormation checks each element of a list parameter against AllowedValues and AllowedPattern.
            for (String element : list ? elements(value) : List.of(value)) {
                allowed(name, declaration, element, why);
            }
            if ((declaration.has("MinLength") && value.length() < declaration.get("MinLength").asInt())
                    || (declaration.has("MaxLength") && value.length() > declaration.get("MaxLength").asInt())) {
                throw new TemplateException("the parameter " + name + "=\"" + value + "\" is not "
                        + declaration.path("MinLength").asInt(0) + " to " + declaration.path("MaxLength").asText("any")
                        + " characters long" + why + ".");
            }
            if (type.equals("Number")) {
                BigDecimal number;
                try {
                    number = new BigDecimal(value.strip());
                } catch (NumberFormatException e) {
                    throw new TemplateException("the parameter " + name + "=\"" + value + "\" is not a number.", e);
                }
                if ((declaration.has("MinValue") && number.compareTo(bound(name, declaration.get("MinValue"))) < 0)
                        || (declaration.has("MaxValue") && number.compareTo(bound(name, declaration.get("MaxValue"))) > 0)) {
                    throw new TemplateException("the parameter " + name + "=" + value + " is outside "
                            + declaration.path("MinValue").asText("-inf") + " to " + declaration.path("MaxValue").asText("inf")
                            + why + ".");
                }
            } else if (list) {
                ArrayNode elements = NODES.arrayNode();
                elements(value).forEach(elements::add);
                return elements;
            } else if (!type.equals("String")) {
                throw new TemplateException("the parameter " + name + " has the type " + type + ", which is not resolved locally.");
            }
            return new TextNode(value);
        }

        private static List<String> elements(String value) {
            return value.isEmpty() ? List.of()
                    : Arrays.stream(value.split(",", -1)).map(String::strip).toList();
        }

        private static void allowed(String name, JsonNode declaration, String value, String why) {
            JsonNode allowed = declaration.get("AllowedValues");
            if (allowed != null) {
                boolean found = false;
                for (JsonNode candidate : allowed) {
                    found |= candidate.asText().equals(value);
                }
                if (!found) {
                    throw new TemplateException("the parameter " + name + " holds \"" + value + "\", which is not one of "
                            + allowed + why + ".");
                }
            }
            JsonNode pattern = declaration.get("AllowedPattern");
            if (pattern != null) {
                try {
                    if (!Pattern.compile(pattern.asText()).matcher(value).matches()) {
                        throw new TemplateException("the parameter " + name + " holds \"" + value
                                + "\", which does not match its AllowedPattern " + pattern.asText() + why + ".");
                    }
                } catch (PatternSyntaxException e) {
                    throw new TemplateException("the AllowedPattern of " + name + " is not a regular expression: " + e.getMessage(), e);
                }
            }
        }

        /** A MinValue or MaxValue, written as a number or quoted ("5"), as CloudFormation accepts both. */
        private static BigDecimal bound(String name, JsonNode bound) {
            try {
                return new BigDecimal(bound.asText().strip());
            } catch (NumberFormatException e) {
                throw new TemplateException("the MinValue or MaxValue of " + name + " is not a number: " + bound, e);
            }
        }

        /** Each rule whose RuleCondition holds must have every Assert true, else the stack is refused. */
        private static void checkRules(ResolvedTemplate resolved) {
            resolved.template.rules().properties().forEach(rule -> {
                JsonNode when = rule.getValue().get("RuleCondition");
                if (when != null && !bool(resolved.resolveRule(when), "RuleCondition of " + rule.getKey())) {
                    return;
                }
                for (JsonNode assertion : rule.getValue().path("Assertions")) {
                    if (!bool(resolved.resolveRule(assertion.get("Assert")), "Assert of " + rule.getKey())) {
                        throw new TemplateException("the rule " + rule.getKey() + " refuses these parameters: "
                                + assertion.path("AssertDescription").asText("an assertion is false") + ".");
                    }
                }
            });
        }
    }
}
