package datalake.deploy.iam;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The evaluator of the IAM proof held to AWS's policy evaluation logic where it is easy to get wrong, on
 * crafted policies (nothing in template.yaml exercises these rules today, so the proof would not notice
 * if the evaluator drifted): a resource policy that names the account, a Deny with NotPrincipal, and the
 * Null condition operator.
 */
class DecisionTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ACCOUNT = "123456789012";
    private static final String ROLE = "arn:aws:iam::" + ACCOUNT + ":role/ingester";
    private static final String OTHER_ROLE = "arn:aws:iam::" + ACCOUNT + ":role/other";
    private static final String BUCKET = "arn:aws:s3:::datalake-" + ACCOUNT + "-us-east-1";
    private static final String OBJECT = BUCKET + "/feed/file.bin";

    private static Statement statement(String where, String json) {
        try {
            return new Statement(JSON.readTree(json.replace('\'', '"')), where);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    private static Request get(String principal) {
        return new Request(principal, "s3:GetObject", OBJECT, Map.of("aws:SecureTransport", List.of("true")));
    }

    private static final Statement ROLE_MAY_GET = statement("role", "{'Sid':'Get','Effect':'Allow',"
            + "'Action':'s3:GetObject','Resource':'" + BUCKET + "/*'}");

    @Test
    void aBucketPolicyNamingTheAccountDelegatesToIamAndAllowsNothingByItself() {
        for (String account : List.of("arn:aws:iam::" + ACCOUNT + ":root", ACCOUNT)) {
            Statement accountMayGet = statement("bucket policy", "{'Sid':'Account','Effect':'Allow','Principal':{'AWS':'"
                    + account + "'},'Action':'s3:GetObject','Resource':'" + BUCKET + "/*'}");

            assertFalse(Decision.evaluate(List.of(accountMayGet), get(ROLE)).allowed(),
                    account + " as principal, and nothing in the role's own policy");
            assertTrue(Decision.evaluate(List.of(accountMayGet, ROLE_MAY_GET), get(ROLE)).allowed(),
                    account + " as principal, and the role's own policy allows");
        }
    }

    @Test
    void aBucketPolicyNamingThePrincipalOrEveryoneAllowsByItselfWithinTheAccount() {
        for (String principal : List.of("{'AWS':'" + ROLE + "'}", "{'AWS':['" + OTHER_ROLE + "','" + ROLE + "']}", "'*'")) {
            Statement named = statement("bucket policy", "{'Sid':'Named','Effect':'Allow','Principal':" + principal
                    + ",'Action':'s3:GetObject','Resource':'" + BUCKET + "/*'}");

            assertTrue(Decision.evaluate(List.of(named), get(ROLE)).allowed(), principal);
        }
    }

    @Test
    void aDenyWithNotPrincipalDeniesEveryoneButThePrincipalsItNames() {
        // Given a bucket policy that denies reads to all but the ingester's role (and its account, as
        // AWS asks of a NotPrincipal), and both roles' own policies allowing the read
        Statement allButIngester = statement("bucket policy", "{'Sid':'OnlyTheIngester','Effect':'Deny','NotPrincipal':"
                + "{'AWS':['" + ROLE + "','arn:aws:iam::" + ACCOUNT + ":root']},'Action':'s3:GetObject','Resource':'"
                + BUCKET + "/*'}");
        Statement otherMayGet = statement("other role", "{'Sid':'Get','Effect':'Allow','Action':'s3:GetObject',"
                + "'Resource':'" + BUCKET + "/*'}");

        // Then the ingester reads, and the other role is denied by the statement
        assertTrue(Decision.evaluate(List.of(allButIngester, ROLE_MAY_GET), get(ROLE)).allowed());
        Decision other = Decision.evaluate(List.of(allButIngester, otherMayGet), get(OTHER_ROLE));
        assertFalse(other.allowed());
        assertTrue(other.because().contains(allButIngester), other.because().toString());
    }

    @Test
    void aNotPrincipalThatNamesARoleWithoutItsAccountStillDeniesIt() {
        // AWS may check the account before the role: a NotPrincipal must name both to leave the role out
        Statement roleOnly = statement("bucket policy", "{'Sid':'RoleOnly','Effect':'Deny','NotPrincipal':{'AWS':'"
                + ROLE + "'},'Action':'s3:GetObject','Resource':'" + BUCKET + "/*'}");

        assertFalse(Decision.evaluate(List.of(roleOnly, ROLE_MAY_GET), get(ROLE)).allowed());
    }

    @Test
    void theNullOperatorTestsWhetherAKeyIsAbsent() {
        // Given a role that may read only when the request carries no VPC endpoint, and a bucket that refuses
        // writes without a server-side encryption header
        Statement notThroughAnEndpoint = statement("role", "{'Sid':'GetOutsideEndpoints','Effect':'Allow',"
                + "'Action':'s3:GetObject','Resource':'" + BUCKET + "/*','Condition':{'Null':{'aws:SourceVpce':'true'}}}");
        Statement encryptedOnly = statement("bucket policy", "{'Sid':'DenyUnencrypted','Effect':'Deny','Principal':'*',"
                + "'Action':'s3:PutObject','Resource':'" + BUCKET + "/*',"
                + "'Condition':{'Null':{'s3:x-amz-server-side-encryption':'true'}}}");
        Statement rolePuts = statement("role", "{'Sid':'Put','Effect':'Allow','Action':'s3:PutObject','Resource':'"
                + BUCKET + "/*'}");

        // Then a read without the key is allowed, and one with it is not
        assertTrue(Decision.evaluate(List.of(notThroughAnEndpoint), get(ROLE)).allowed(), "the key is absent");
        Request throughAnEndpoint = new Request(ROLE, "s3:GetObject", OBJECT, Map.of("aws:SourceVpce", List.of("vpce-1")));
        assertFalse(Decision.evaluate(List.of(notThroughAnEndpoint), throughAnEndpoint).allowed(), "the key is present");

        // and a write without the header is denied, one with it allowed
        Request plain = new Request(ROLE, "s3:PutObject", OBJECT, Map.of());
        Request encrypted = new Request(ROLE, "s3:PutObject", OBJECT,
                Map.of("s3:x-amz-server-side-encryption", List.of("AES256")));
        assertFalse(Decision.evaluate(List.of(encryptedOnly, rolePuts), plain).allowed());
        assertTrue(Decision.evaluate(List.of(encryptedOnly, rolePuts), encrypted).allowed());
    }

    @Test
    void nullFalseHoldsWhenTheKeyIsPresent() {
        assertTrue(Statement.holds("Null", List.of("vpce-1"), List.of("false")));
        assertFalse(Statement.holds("Null", null, List.of("false")));
        assertTrue(Statement.holds("Null", null, List.of("true")));
        assertFalse(Statement.holds("Null", List.of("vpce-1"), List.of("true")));
    }
}
