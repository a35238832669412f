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

    /**
     * IAM's order within one account ("Policy evaluation logic"): an applicable Deny wins; else an applicable
     * Allow of the principal's identity policies or of the resource's policy allows, except a resource
     * policy's Allow that names the principal's account rather than the principal: that one delegates to IAM
     * and allows nothing the identity policies do not ({@link Statement#delegatesToIam}); else denied.
     * Identity and resource statements come in one list: a resource policy's have a Principal.
     */
    public static Decision evaluate(List<Statement> statements, Request request) {
        List<Statement> denies = statements.stream().filter(s -> !s.allows() && s.appliesTo(request)).toList();
        if (!denies.isEmpty()) {
            return new Decision(false, denies);
        }
        List<Statement> allows = statements.stream().filter(s -> s.allows() && s.appliesTo(request)).toList();
        List<Statement> granting = allows.stream().filter(s -> !s.delegatesToIam(request)).toList();
        if (granting.isEmpty()) {
            return new Decision(false, List.of());
        }
        boolean identityAllows = granting.stream().anyMatch(s -> !s.inResourcePolicy());
        return new Decision(true, identityAllows ? allows : granting);
    }
}
