package datalake.deploy.iam;

import java.util.List;

/**
 * What IAM answers a request: allowed (by the statements named), or denied, explicitly (a Deny applies)
 * or because nothing allows it.
 *
 * @param allowed  whether the request may proceed
 * @param because  the statements that decided: the Allows, or the Deny
 */
public record Decision(boolean allowed, List<Statement> because) {
    public Decision {
        because = List.copyOf(because);
    }

    /** IAM's order: an applicable Deny wins; else any applicable Allow; else denied. */
    public static Decision evaluate(List<Statement> statements, Request request) {
        List<Statement> denies = statements.stream().filter(s -> !s.allows() && s.appliesTo(request)).toList();
        if (!denies.isEmpty()) {
            return new Decision(false, denies);
        }
        List<Statement> allows = statements.stream().filter(s -> s.allows() && s.appliesTo(request)).toList();
        return new Decision(!allows.isEmpty(), allows);
    }
}
