package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import datalake.emulators.template.SamTransform;
import org.junit.jupiter.api.Test;

class PushTest {
    @Test
    void theDefaultBucketIsTheLocalStacksBucket() {
        // scripts/local.sh builds template.yaml's stack with its defaults (moto's account, us-east-1)
        String bucket = SamTransform.repositoryTemplate().resolve().build().ref("StorageBucket");
        assertEquals(bucket, Push.LOCAL_BUCKET);
    }
}
