package datalake.emulators.template;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A plain CloudFormation template (template.yaml after the SAM transform), unresolved: its parameters,
 * rules, conditions, resources and outputs as written. {@link #resolve()} gives the values a stack
 * built from it would have.
 */
public final class Template {
    private final JsonNode root;
    private final String id;
    private final Map<String, Resource> resources;
    /** The SAM template it was transformed from, when SamTransform made it (null otherwise). */
    private final Path source;
    private final SamTransform.Deployment deployment;

    private Template(JsonNode root, String id) {
        this(root, id, null, SamTransform.Deployment.defaults());
    }

    private Template(JsonNode root, String id, Path source, SamTransform.Deployment deployment) {
        this.root = root;
        this.id = id;
        this.source = source;
        this.deployment = deployment;
        Map<String, Resource> byId = new LinkedHashMap<>();
        root.path("Resources").properties().forEach(e -> byId.put(e.getKey(), new Resource(e.getKey(), e.getValue())));
        this.resources = Collections.unmodifiableMap(byId);
    }

    /** A template already in CloudFormation JSON (no SAM transform left to run). */
    public static Template of(JsonNode cloudFormation, String id) {
        if (!cloudFormation.path("Resources").isObject()) {
            throw new TemplateException("the template " + id + " has no Resources section.");
        }
        if (cloudFormation.has("Transform")) {
            throw new TemplateException("the template " + id + " still names a Transform; run SamTransform first.");
        }
        return new Template(cloudFormation, id);
    }

    /** This template, known to be the transform of {@code samTemplate} for {@code deployment}. */
    Template transformedFrom(Path samTemplate, SamTransform.Deployment transformedFor) {
        return new Template(root, id, samTemplate, transformedFor);
    }

    /** The deployment the SAM transform made this template for (the defaults when it is not SamTransform's). */
    SamTransform.Deployment deployment() {
        return deployment;
    }

    /**
     * The transform of the same SAM template for another deployment: the translator's output depends on
     * the parameters, account, region and stack name, as in CloudFormation. This template itself when it
     * was not made by SamTransform or already is for that deployment.
     */
    Template forDeployment(SamTransform.Deployment other) {
        return source == null || other.equals(deployment) ? this : SamTransform.transform(source, other);
    }

    /** Identifies the template's content (its SamTransform cache key). */
    public String id() {
        return id;
    }

    public JsonNode json() {
        return root;
    }

    /** The parameters' declarations, by name. */
    public JsonNode parameters() {
        return root.path("Parameters");
    }

    public JsonNode rules() {
        return root.path("Rules");
    }

    public JsonNode conditions() {
        return root.path("Conditions");
    }

    public JsonNode outputs() {
        return root.path("Outputs");
    }

    /** Every resource, in the template's order, whatever its condition. */
    public Map<String, Resource> resources() {
        return resources;
    }

    public Resource resource(String logicalId) {
        Resource resource = resources.get(logicalId);
        if (resource == null) {
            throw new TemplateException("the template has no resource " + logicalId + ".");
        }
        return resource;
    }

    /** The resources of one type, in the template's order. */
    public List<Resource> ofType(String type) {
        return resources.values().stream().filter(r -> r.type().equals(type)).toList();
    }

    /** Values for a stack of this template: parameters, pseudo parameters, conditions and intrinsic functions. */
    public ResolvedTemplate.Builder resolve() {
        return ResolvedTemplate.builder(this);
    }

    /**
     * One resource as written.
     *
     * @param logicalId its name in the template
     * @param json      its declaration (Type, Properties, Condition, DeletionPolicy, ...)
     */
    public record Resource(String logicalId, JsonNode json) {
        public String type() {
            return json.path("Type").asText();
        }

        /** The properties, unresolved; a missing node when there are none. */
        public JsonNode properties() {
            JsonNode properties = json.get("Properties");
            return properties == null ? MissingNode.getInstance() : properties;
        }

        /** The condition that decides whether the resource exists. */
        public Optional<String> condition() {
            return Optional.ofNullable(json.get("Condition")).map(JsonNode::asText);
        }

        public Optional<String> deletionPolicy() {
            return Optional.ofNullable(json.get("DeletionPolicy")).map(JsonNode::asText);
        }

        public Optional<String> updateReplacePolicy() {
            return Optional.ofNullable(json.get("UpdateReplacePolicy")).map(JsonNode::asText);
        }
    }
}
