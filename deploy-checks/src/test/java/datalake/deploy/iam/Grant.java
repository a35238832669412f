package datalake.deploy.iam;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One action on one resource a principal's policy allows, named as template.yaml writes it: the statement's
 * Sid, the action, and the resource as written ({@code RecordsTable.Arn},
 * {@code ${RecordsTable.Arn}/index/work-id-index}).
 *
 * @param principal the function or managed policy whose policy holds it
 * @param sid       the statement's Sid
 * @param action    one action of the statement
 * @param resource  one resource of the statement, as written
 */
record Grant(String principal, String sid, String action, String resource) {

    @Override
    public String toString() {
        return principal + " " + sid + " " + action + " on " + resource;
    }

    /** The resources of a statement as the template writes them, in order. */
    static List<String> written(JsonNode statement) {
        List<String> out = new ArrayList<>();
        JsonNode resources = statement.get("Resource");
        if (resources == null) {
            return out;
        }
        if (resources.isArray()) {
            resources.forEach(r -> out.add(written1(r)));
        } else {
            out.add(written1(resources));
        }
        return out;
    }

    private static String written1(JsonNode resource) {
        if (resource.isTextual()) {
            return resource.asText();
        }
        if (resource.has("Fn::GetAtt")) {
            JsonNode args = resource.get("Fn::GetAtt");
            return args.isArray() ? args.get(0).asText() + "." + args.get(1).asText() : args.asText();
        }
        if (resource.has("Ref")) {
            return resource.get("Ref").asText();
        }
        if (resource.has("Fn::Sub")) {
            JsonNode args = resource.get("Fn::Sub");
            return args.isArray() ? args.get(0).asText() : args.asText();
        }
        return resource.toString();
    }
}
