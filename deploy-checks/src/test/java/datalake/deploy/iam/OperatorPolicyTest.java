package datalake.deploy.iam;

import static org.junit.jupiter.api.Assertions.assertEquals;

import datalake.emulators.template.ResolvedTemplate;
import datalake.emulators.template.SamTransform;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The README's S3 Batch Operations backfill, step by step, as the operator holding IndexOperatorPolicy runs
 * it: no emulator has Batch Operations, so its calls are proven here, statically. {@code aws s3api
 * head-object} (the manifest's ETag) needs {@code s3:GetObject}, as every HEAD does.
 */
class OperatorPolicyTest {

    @Test
    void everyStepOfTheReadmesBatchOperationsBackfillIsAllowedToTheOperator() {
        ResolvedTemplate stack = SamTransform.repositoryTemplate().resolve().build();
        StackPolicies policies = new StackPolicies(stack);
        String operator = policies.principalArn("IndexOperatorPolicy");
        String operations = "arn:aws:s3:::" + stack.ref("OperationsBucket");
        String job = "arn:aws:s3:" + stack.region() + ":" + stack.accountId() + ":job/";
        List<Request> steps = List.of(
                new Request(operator, "s3:PutObject", operations + "/manifests/objects.csv", Map.of()),
                new Request(operator, "s3:GetObject", operations + "/manifests/objects.csv", Map.of()),
                // an inventory delivered to inventory/: its manifest.json's ETag
                new Request(operator, "s3:GetObject",
                        operations + "/inventory/lake/daily/2026-11-27T01-00Z/manifest.json", Map.of()),
                new Request(operator, "s3:CreateJob", "*", Map.of()),
                new Request(operator, "iam:PassRole", stack.getAtt("BackfillJobRole", "Arn"), Map.of()),
                new Request(operator, "s3:DescribeJob", job + "5f7c1a2e", Map.of()),
                new Request(operator, "s3:GetObject", operations + "/reports/job-5f7c1a2e/results/1.csv", Map.of()));

        List<String> denied = new ArrayList<>();
        for (Request step : steps) {
            if (!Decision.evaluate(policies.identity("IndexOperatorPolicy"), step).allowed()) {
                denied.add(step.action() + " " + step.resource());
            }
        }
        assertEquals(List.of(), denied, "steps of the README's Batch Operations backfill IndexOperatorPolicy refuses");
    }
}
