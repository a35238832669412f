package datalake.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MetadataParserTest {

    private static ObjectNode syslogNode() {
        try {
            return (ObjectNode) DatalakeJson.MAPPER.readTree(Fixtures.SYSLOG_JSON);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static Metadata parse(ObjectNode node) {
        return MetadataParser.parse(node.toString());
    }

    private static InvalidMetadataException rejected(ObjectNode node) {
        return assertThrows(InvalidMetadataException.class, () -> parse(node));
    }

    @Test
    void aNumberJacksonCannotReadIsInvalidJsonNotACrash() {
        String json = "{\"version\":0,\"start\":14E268000000000}";

        // found by MetadataParserFuzzTest: Jackson's BigDecimal reader throws NumberFormatException
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> MetadataParser.parse(json));

        assertEquals("the datalake metadata is not valid JSON.", e.getMessage());
    }

    @Test
    void parsesTheSpecExample() {
        Metadata m = Fixtures.syslog();

        assertEquals(1426809920345L, m.start());
        assertEquals(1426895999114L, m.end());
        assertEquals("/var/log/syslog.1", m.path());
        assertNull(m.workId());
        assertEquals("webserver02", m.where());
        assertEquals("syslog", m.what());
        assertEquals("6309e115c2914d0f8622973422626954", m.id());
        assertEquals("a3e75ee4f45f676422e038f2c116d000", m.hash());
        assertEquals(0, m.version());
    }

    @Test
    void absentEndIsAnInstant() {
        ObjectNode node = syslogNode();
        node.remove("end");

        Metadata m = parse(node);

        assertNull(m.end());
        assertEquals(m.start(), m.endOrStart());
    }

    @Test
    void nullEndIsAnInstant() {
        ObjectNode node = syslogNode();
        node.putNull("end");

        assertNull(parse(node).end());
    }

    @Test
    void setWorkIdIsKept() {
        ObjectNode node = syslogNode();
        node.put("work_id", "job-42_a");

        assertEquals("job-42_a", parse(node).workId());
    }

    @Test
    void unknownFieldsAreIgnored() {
        ObjectNode node = syslogNode();
        node.put("colour", "blue");

        assertEquals(Fixtures.syslog(), parse(node));
    }

    @ParameterizedTest
    @CsvSource({
        // input, expected ms
        "1426809920345, 1426809920345",   // ms stays ms
        "1426809920, 1426809920000",      // seconds become ms
        "100000000000, 100000000000000",  // the cutoff itself is seconds
        "100000000001, 100000000001",     // just above it is ms
        "0, 0",
        "-86400, -86400000",              // seconds before 1970
        "1426809920.345, 1426809920345",  // fractional seconds
        // a fraction of a millisecond goes towards zero, as datalake-common's int() of its datetime
        "1426809920345.6, 1426809920345",
        "1426809920.3456, 1426809920345",
        "-1.0005, -1000",
    })
    void numericTimesAreNormalisedToMilliseconds(String input, long expected) throws Exception {
        ObjectNode node = syslogNode();
        node.set("start", DatalakeJson.MAPPER.readTree(input));
        node.remove("end");

        assertEquals(expected, parse(node).start());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "2015-03-20T00:05:20.345Z      | 1426809920345",
        "2015-03-20T00:05:20.345+00:00 | 1426809920345",
        "2015-03-20T01:05:20.345+01:00 | 1426809920345",
        "2015-03-20T00:05:20.345       | 1426809920345",  // no offset: UTC
        "2015-03-20 00:05:20.345       | 1426809920345",  // a space for the T
        "2015-03-20                    | 1426809600000",  // a date: midnight UTC
        "1969-12-31T00:00:00Z          | -86400000",
        // spellings dateutil reads too; the values are datalake-common 2.5.11's normalize_date of each
        "2015-03-20T00:05:20+0100        | 1426806320000",
        "2015-03-20T00:05:20.345+0530    | 1426790120345",
        "2015-03-20T00:05:20-05          | 1426827920000",
        "2015-03-20T00:05:20 +01:00      | 1426806320000",
        "20150320T000520Z                | 1426809920000",
        "20150320T0005Z                  | 1426809900000",
        "2015-03-20T00:05:20,345Z        | 1426809920345",
        "2015-03-20T00:05:20.1234567891Z | 1426809920123",
        "2015-03-20T00:05:20UTC          | 1426809920000",
        "2015-03-20T00:05:20 UTC         | 1426809920000",
        "2015-03-20t00:05:20z            | 1426809920000",
        "2015-03-20T00:05Z               | 1426809900000",
        "2015-3-20                       | 1426809600000",
    })
    void isoTimesAreNormalisedToMilliseconds(String input, long expected) {
        ObjectNode node = syslogNode();
        node.put("start", input.strip());
        node.remove("end");

        assertEquals(expected, parse(node).start());
    }

    // The expected values are datalake-common's: Metadata.normalize_date of the same text (datalake 1.x).
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "1426809920345      | 1426809920345",   // milliseconds
        "1426809920         | 1426809920000",   // seconds
        "100000000000       | 100000000000000", // the cutoff itself is seconds
        "100000000001       | 100000000001",    // just above it, milliseconds
        "0                  | 0",
        "-86400             | -86400000",       // seconds before 1970
        "+1426809920345     | 1426809920345",
        "'  1426809920345 ' | 1426809920345",   // surrounding blanks, as Python's float() allows
        "1e12               | 1000000000000",
    })
    void digitStringsAreNumbers(String text, long expected) {
        assertEquals(expected, startGivenAs(text));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "1426809920.345     | 1426809920345",   // seconds with milliseconds
        "1426809920.3456    | 1426809920345",   // a fraction of a millisecond goes towards zero
        "1426809920.3459999 | 1426809920346",   // after rounding to microseconds
        "1426809920345.6    | 1426809920345",   // milliseconds with a fraction
        "1.4268099203450E12 | 1426809920345",
        "-1.0005            | -1000",           // towards zero before 1970 too
        ".5                 | 500",
    })
    void decimalStringsAreNumbers(String text, long expected) {
        assertEquals(expected, startGivenAs(text));
    }

    /** The start parsed from the spec example with {@code text} as its start and no end. */
    private long startGivenAs(String text) {
        ObjectNode node = syslogNode();
        node.put("start", text);
        node.remove("end");
        return parse(node).start();
    }

    @Test
    void startAndEndAsDigitStringsAreTheSpecExample() {
        ObjectNode node = syslogNode();
        node.put("start", "1426809920345");
        node.put("end", "1426895999114");

        assertEquals(Fixtures.syslog(), parse(node));
    }

    @Test
    void anIsoStringIsNotTakenForANumber() {
        ObjectNode node = syslogNode();
        node.put("start", "2015-03-20T00:05:20.345Z");
        node.put("end", "20150321");  // eight digits: a number of seconds (1970-08-22), as datalake-common reads it

        InvalidMetadataException e = rejected(node);

        assertEquals("end", e.field());
        assertEquals("metadata field 'end' must not be before 'start'.", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"yesterday", "12abc", "0x10", "nan", "inf", "1e400", "1426809920345ms", "1,5", "   ",
        // datalake-common refuses these too
        "2015-3-", "2015-03-20T00:05:20+", "2015-03-20TUTC", "2015-03-20T24:61Z", "2015-03-20T00:05:20+2400"})
    void garbageStringsAreRejectedInOneSentence(String text) {
        ObjectNode node = syslogNode();
        node.put("start", text);

        InvalidMetadataException e = rejected(node);

        assertEquals("start", e.field());
        assertEquals("metadata field 'start' must be milliseconds or seconds since the epoch, or an ISO-8601 time.",
                e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"where", "what", "work_id"})
    void slugsMayBe256CharactersButNotMore(String field) {
        ObjectNode node = syslogNode();
        node.put(field, "s".repeat(256));
        Metadata m = parse(node);
        assertEquals("s".repeat(256), switch (field) {
            case "where" -> m.where();
            case "what" -> m.what();
            default -> m.workId();
        });

        node.put(field, "s".repeat(257));
        InvalidMetadataException e = rejected(node);

        assertEquals(field, e.field());
        assertTrue(e.getMessage().contains("at most 256 characters"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"id, a\\ud800b", "id, \\udc00", "path, /var/log/\\ud83d.log", "hash, a3e75ee4f45f676422e038f2c116d00\\udfff"})
    void anUnpairedSurrogateIsRejected(String field, String escaped) throws Exception {
        // as Python's json writes it: a lone surrogate as a \\u escape
        ObjectNode node = syslogNode();
        node.set(field, DatalakeJson.MAPPER.readTree("\"" + escaped + "\""));

        InvalidMetadataException e = rejected(node);

        assertEquals(field, e.field());
        assertEquals("metadata field '" + field + "' must be Unicode text, without an unpaired surrogate (U+D800 to U+DFFF).",
                e.getMessage());
        assertTrue(!MetadataRules.isId(node.get(field).textValue()));
    }

    @Test
    void aSurrogatePairIsOneCharacterOfAnId() {
        ObjectNode node = syslogNode();
        node.put("id", "log-\ud83d\ude00");

        assertTrue(MetadataRules.isId(parse(node).id()));
    }

    @Test
    void anIdOf128ThreeByteCharactersIsAccepted() {
        ObjectNode node = syslogNode();
        node.put("id", "\u20ac".repeat(128));

        assertEquals(MetadataRules.MAX_ID_BYTES, parse(node).id().getBytes(StandardCharsets.UTF_8).length);
    }

    @Test
    void endBeforeStartIsRejected() {
        ObjectNode node = syslogNode();
        node.put("end", 1426809920344L);

        InvalidMetadataException e = rejected(node);

        assertEquals("end", e.field());
        assertEquals("metadata field 'end' must not be before 'start'.", e.getMessage());
    }

    @Test
    void endEqualToStartIsAccepted() {
        ObjectNode node = syslogNode();
        node.put("end", 1426809920345L);

        assertEquals(1426809920345L, parse(node).end());
    }

    @ParameterizedTest
    @ValueSource(strings = {"start", "where", "what", "id", "hash", "path"})
    void requiredFieldsMustBePresent(String field) {
        ObjectNode node = syslogNode();
        node.remove(field);

        InvalidMetadataException e = rejected(node);

        assertEquals(field, e.field());
        assertTrue(e.getMessage().contains("'" + field + "' is required"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"start", "where", "what", "id", "hash", "path", "version"})
    void requiredFieldsMustNotBeNull(String field) {
        ObjectNode node = syslogNode();
        node.putNull(field);

        assertEquals(field, rejected(node).field());
    }

    @Test
    void aMissingVersionIsVersionZeroAsDatalakeCommonReadsIt() {
        ObjectNode node = syslogNode();
        node.remove("version");

        assertEquals(Fixtures.syslog(), parse(node));
    }

    @ParameterizedTest
    @ValueSource(strings = {" trailing", "{\"version\":1}", ",", "]"})
    void anythingAfterTheJsonDocumentIsInvalidJson(String after) {
        String json = syslogNode().toString() + after;

        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> MetadataParser.parse(json));

        assertEquals("the datalake metadata is not valid JSON.", e.getMessage());
        assertEquals(Fixtures.syslog(), MetadataParser.parse(syslogNode().toString() + " \n"));
    }

    @Test
    void workIdMustBePresentEvenIfNull() {
        ObjectNode node = syslogNode();
        node.remove("work_id");

        InvalidMetadataException e = rejected(node);

        assertEquals("work_id", e.field());
        assertEquals("metadata field 'work_id' is required; it may be null.", e.getMessage());
    }

    @Test
    void workIdMustNotBeTheStringNull() {
        ObjectNode node = syslogNode();
        node.put("work_id", "null");

        InvalidMetadataException e = rejected(node);

        assertEquals("work_id", e.field());
        assertTrue(e.getMessage().contains("must not be the string \"null\""));
    }

    @ParameterizedTest
    @CsvSource({
        "where, WebServer02", "where, web server", "where, web.server", "where, ''", "where, wébserver",
        "what, syslog.log", "what, Syslog", "what, sys:log", "what, ''",
        "work_id, Job-1", "work_id, job 1", "work_id, job:1", "work_id, ''",
    })
    void slugsAllowOnlyLowercaseDigitsDashAndUnderscore(String field, String value) {
        ObjectNode node = syslogNode();
        node.put(field, value);

        InvalidMetadataException e = rejected(node);

        assertEquals(field, e.field());
        assertEquals("metadata field '" + field + "' must contain only lowercase letters, digits, '-' and '_'.",
                e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"var/log/syslog", "./syslog", "syslog", "", "C:relative", "\\\\server\\share", "C:\\", "C:\\\nx"})
    void pathMustBeAbsolute(String path) {
        ObjectNode node = syslogNode();
        node.put("path", path);

        assertEquals("path", rejected(node).field());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/var/log/syslog.1", "C:\\logs\\app.log", "d:\\x", "C:\\x\ny"})
    void absolutePathsAreAccepted(String path) {
        ObjectNode node = syslogNode();
        node.put("path", path);

        assertEquals(path, parse(node).path());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a:b", "a b", "a\tb", "a\nb", "a\u00a0b", "a\u2007b", "a\u202fb", "a\u3000b"})
    void idMustBeNonEmptyWithoutColonOrWhitespace(String id) {
        ObjectNode node = syslogNode();
        node.put("id", id);

        assertEquals("id", rejected(node).field());
    }

    @Test
    void idMayBe128CharactersButNotMore() {
        ObjectNode node = syslogNode();
        node.put("id", "a".repeat(128));
        assertEquals(128, parse(node).id().length());

        node.put("id", "a".repeat(129));
        assertEquals("id", rejected(node).field());
    }

    @ParameterizedTest
    @ValueSource(strings = {"12345", "6789", "abc", "A3E75EE4F45F676422E038F2C116D000",
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "md5:5d26a2f9 (partial)", "h\u00e4sh"})
    void anyHashIsTakenAndKeptAsGiven(String hash) {
        // the Python datalake never checked a hash: its own ingester fixtures carry "12345" and "6789"
        ObjectNode node = syslogNode();
        node.put("hash", hash);

        assertEquals(hash, parse(node).hash());
    }

    @Test
    void aHashIsAtMost128Characters() {
        ObjectNode node = syslogNode();
        node.put("hash", "f".repeat(MetadataRules.MAX_HASH_LENGTH));
        assertEquals(128, parse(node).hash().length());

        node.put("hash", "f".repeat(MetadataRules.MAX_HASH_LENGTH + 1));
        InvalidMetadataException e = rejected(node);
        assertEquals("hash", e.field());
        assertEquals("metadata field 'hash' must be 1 to 128 characters long.", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ab\ncd", "\u0000", "tab\there", "del\u007f"})
    void aHashIsNotEmptyAndHasNoControlCharacters(String hash) {
        ObjectNode node = syslogNode();
        node.put("hash", hash);

        assertEquals("hash", rejected(node).field());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "\"0\"", "null", "0.5", "true"})
    void versionMustBeZero(String version) throws Exception {
        ObjectNode node = syslogNode();
        node.set("version", DatalakeJson.MAPPER.readTree(version));

        assertEquals("version", rejected(node).field());
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"yesterday\"", "\"2015-13-01\"", "true", "{}", "[]", "1e300", "-1e300", "\"\""})
    void unreadableTimesAreRejected(String start) throws Exception {
        ObjectNode node = syslogNode();
        node.set("start", DatalakeJson.MAPPER.readTree(start));

        InvalidMetadataException e = rejected(node);

        assertEquals("start", e.field());
        assertTrue(e.getMessage().startsWith("metadata field 'start' must be"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"where", "what", "id", "hash", "path", "work_id"})
    void textFieldsMustBeStrings(String field) {
        ObjectNode node = syslogNode();
        node.put(field, 12);

        InvalidMetadataException e = rejected(node);

        assertEquals(field, e.field());
        assertEquals("metadata field '" + field + "' must be a string.", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  ", "{", "[1,2]", "\"text\"", "null", "42"})
    void documentsThatAreNotObjectsAreRejected(String json) {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> MetadataParser.parse(json));

        assertEquals("metadata", e.field());
    }

    @Test
    void rejectionsAreOneSentenceAndNeverEchoTheValue() {
        ObjectNode node = syslogNode();
        node.put("where", "Secret Host Name");

        String message = rejected(node).getMessage();

        assertTrue(message.endsWith("."));
        assertTrue(!message.contains("Secret"), message);
        assertEquals(1, message.split("\\. ").length, message);
    }

    @Test
    void toStringShowsOnlyIdentifyingFields() {
        ObjectNode node = syslogNode();
        node.put("work_id", "secret-job");

        String text = parse(node).toString();

        assertTrue(text.contains("syslog") && text.contains("webserver02"));
        assertTrue(!text.contains("secret-job") && !text.contains("/var/log"), text);
    }
}
