package datalake.emulators.calls;

import java.util.Map;

/**
 * A stack whose principals' calls are recorded: what the calls are evaluated against.
 *
 * @param id         random, unique to the stack
 * @param stackName  its AWS::StackName
 * @param templateId the transformed template it was built from ({@code SamTransform.cached(templateId)})
 * @param account    its AWS::AccountId
 * @param region     its AWS::Region
 * @param parameters its parameter values
 */
public record StackRecord(String id, String stackName, String templateId, String account, String region,
        Map<String, String> parameters) {
    public StackRecord {
        parameters = Map.copyOf(parameters);
    }
}
