package datalake.emulators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ResourceNamesTest {

    @Test
    void defaultsAreTheLocalRunnerNames() {
        ResourceNames names = ResourceNames.defaults();

        assertEquals("us-east-1", names.region());
        assertEquals("datalake-local", names.bucket());
        assertEquals("datalake-ingest", names.ingestQueue());
        assertEquals("datalake-ingest-dlq", names.deadLetterQueue());
        assertEquals("datalake-uploads", names.uploadTopic());
        assertEquals("datalake-reports", names.reportTopic());
        assertEquals("datalake-records", names.recordsTable());
        assertEquals("datalake-latest", names.latestTable());
        assertEquals("s3://datalake-local", names.storageUrl());
    }

    @Test
    void suffixIsAppendedToEveryNameInALowerCaseFormEveryServiceAccepts() {
        ResourceNames names = ResourceNames.defaults().withSuffix("Ingester_IT.case 1");

        assertEquals("datalake-local-ingester-it-case-1", names.bucket());
        assertEquals("datalake-ingest-dlq-ingester-it-case-1", names.deadLetterQueue());
        assertEquals("datalake-records-ingester-it-case-1", names.recordsTable());
        assertEquals("us-east-1", names.region());
    }

    @Test
    void longSuffixesKeepTheBucketNameWithinS3Limits() {
        ResourceNames names = ResourceNames.defaults().withSuffix("x".repeat(200));

        assertTrue(names.bucket().length() <= 63, names.bucket());
    }

    @Test
    void uniqueNamesDifferEachTimeAndKeepTheHint() {
        ResourceNames first = ResourceNames.unique("NotificationsIT");
        ResourceNames second = ResourceNames.unique("NotificationsIT");

        assertNotEquals(first.bucket(), second.bucket());
        assertTrue(first.bucket().startsWith("datalake-local-notificationsit-"), first.bucket());
        assertTrue(ResourceNames.unique("a-very-long-test-class-name-that-goes-on-and-on").bucket().length() <= 63);
    }

    @Test
    void aSuffixWithoutLettersOrDigitsIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> ResourceNames.defaults().withSuffix("__"));
    }
}
