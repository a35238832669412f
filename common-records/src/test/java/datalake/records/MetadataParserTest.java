package datalake.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Map;
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
    void unknownFieldsAreKeptAfterTheNine() {
        // datalake-common's Metadata is a dict: it keeps a field it does not know, and so does its ingester
        ObjectNode node = syslogNode();
        node.put("colour", "blue");

        Metadata m = parse(node);

        assertNotEquals(Fixtures.syslog(), m);
        assertEquals(DatalakeJson.toJson(Fixtures.syslog()).replaceAll("}$", ",\"colour\":\"blue\"}"),
                DatalakeJson.toJson(m));
    }

    /** A header with fields beyond the nine, each JSON type, as a producer writes it. */
    private static final String WITH_EXTRAS = "{\"version\":0,\"start\":1426809920345,\"end\":1426895999114,"
            + "\"path\":\"/var/log/syslog.1\",\"work_id\":null,\"where\":\"webserver02\",\"what\":\"syslog\","
            + "\"id\":\"6309e115c2914d0f8622973422626954\",\"hash\":\"a3e75ee4f45f676422e038f2c116d000\","
            + "\"data-version\":\"3\",\"tags\":[\"a\"],\"quality\":{\"score\":0.25,\"ok\":true,\"note\":null},"
            + "\"count\":12,\"owner\":\"Zo\\u00eb\",\"big\":-12345678901234567890123456789012345678}";

    @Test
    void extraFieldsAreKeptInOrderAndTypedAsDatalakeCommonKeepsThem() {
        // datalake-common 2.5.11 in the project's virtualenv, json.dumps(Metadata(json.loads(WITH_EXTRAS)),
        // separators=(',', ':'), ensure_ascii=False), writes this
        String python = "{\"version\":0,\"start\":1426809920345,\"end\":1426895999114,\"path\":\"/var/log/syslog.1\","
                + "\"work_id\":null,\"where\":\"webserver02\",\"what\":\"syslog\",\"id\":\"6309e115c2914d0f8622973422626954\","
                + "\"hash\":\"a3e75ee4f45f676422e038f2c116d000\",\"data-version\":\"3\",\"tags\":[\"a\"],"
                + "\"quality\":{\"score\":0.25,\"ok\":true,\"note\":null},\"count\":12,\"owner\":\"Zo\u00eb\","
                + "\"big\":-12345678901234567890123456789012345678}";

        Metadata m = MetadataParser.parse(WITH_EXTRAS);

        assertEquals(python, DatalakeJson.toJson(m));
        assertEquals(m, DatalakeJson.parseMetadata(DatalakeJson.toJson(m)));
        assertEquals(m, DatalakeJson.parseMetadata(DatalakeJson.toObjectMetadata(m)));
    }

    @Test
    void aChangedExtraFieldIsChangedMetadataAndTheirOrderIsNot() {
        Metadata m = MetadataParser.parse(WITH_EXTRAS);

        assertNotEquals(m, MetadataParser.parse(WITH_EXTRAS.replace("[\"a\"]", "[\"b\"]")));
        assertNotEquals(m, MetadataParser.parse(WITH_EXTRAS.replace("\"count\":12,", "")));
        // as Python's dicts compare, and as DynamoDB's maps come back: in any order
        assertEquals(m, MetadataParser.parse(WITH_EXTRAS.replace("\"data-version\":\"3\",", "")
                .replace("\"count\":12,", "\"count\":12,\"data-version\":\"3\",")));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // as given | as DynamoDB gives it back, and so as this metadata holds it
        "1.50 | 1.5",
        "1E2 | 100",
        "-0.0 | 0",
        "0.000 | 0",
        "1e-130 | 1E-130",
        "-2.5E-7 | -2.5E-7",
        "12345678901234567890123456789012345678 | 12345678901234567890123456789012345678",
        "1234567890123456789012345678901234567.8 | 1234567890123456789012345678901234567.8",
        "[1.0, {\"n\": 20.00}] | [1,{\"n\":20}]",
    })
    void extraNumbersAreKeptAsDynamoDbKeepsThem(String given, String kept) throws Exception {
        ObjectNode node = syslogNode();
        node.set("x", DatalakeJson.MAPPER.readTree(given));

        String json = DatalakeJson.toJson(parse(node));

        assertTrue(json.endsWith(",\"x\":" + kept + "}"), json);
    }

    @ParameterizedTest
    @ValueSource(strings = {"9.9999999999999999999999999999999999999E+125", "-9.9999999999999999999999999999999999999E+125",
        "1E-130", "-1E-130", "99999999999999999999999999999999999999", "1E+125"})
    void extraNumbersAtDynamoDbsLimitsAreKept(String number) throws Exception {
        ObjectNode node = syslogNode();
        node.set("x", DatalakeJson.MAPPER.readTree("[" + number + "]"));

        Metadata m = parse(node);

        assertNotEquals(Fixtures.syslog(), m);
        assertEquals(m, DatalakeJson.parseMetadata(DatalakeJson.toJson(m)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1E126", "-1E126", "1E-131", "-9E-131", "123456789012345678901234567890123456789",
        "1.00000000000000000000000000000000000001", "[1, [1E200]]", "{\"a\": {\"b\": 1E-200}}"})
    void extraNumbersDynamoDbCannotStoreAreRefused(String value) throws Exception {
        ObjectNode node = syslogNode();
        node.set("data-version", DatalakeJson.MAPPER.readTree(value));

        InvalidMetadataException e = rejected(node);

        assertEquals("data-version", e.field());
        assertEquals("metadata field 'data-version' must hold only numbers DynamoDB can store: at most 38 significant"
                + " digits, from 1E-130 to 9.9999999999999999999999999999999999999E+125 in magnitude.", e.getMessage());
    }

    @Test
    void changingANodeOfTheExtraFieldsChangesNoMetadata() throws Exception {
        ObjectNode node = syslogNode();
        node.set("tags", DatalakeJson.MAPPER.readTree("[\"a\"]"));
        Metadata m = parse(node);
        Metadata same = parse(node);

        ((ArrayNode) m.extras().get("tags")).add("b");

        assertEquals(same, m);
        assertEquals(same.hashCode(), m.hashCode());
        assertEquals("[\"a\"]", m.extras().get("tags").toString());
    }

    @Test
    void extraFieldsNestedDeeperThanDynamoDbStoresAreRefused() throws Exception {
        // DynamoDB stores 32 levels: the record's metadata map, the field, then 30 arrays and objects
        ObjectNode node = syslogNode();
        node.set("deep", DatalakeJson.MAPPER.readTree("[{\"a\":".repeat(15) + "1" + "}]".repeat(15)));
        assertTrue(DatalakeJson.toJson(parse(node)).contains("\"deep\":[{\"a\":[{"));

        node.set("deep", DatalakeJson.MAPPER.readTree("[".repeat(31) + "]".repeat(31)));
        InvalidMetadataException e = rejected(node);

        assertEquals("deep", e.field());
        assertEquals("metadata field 'deep' must not nest arrays and objects more than 30 deep, so that its record"
                + " fits DynamoDB's 32 levels.", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"[\"a\\ud800\"]", "\"\\udc00\"", "{\"k\": {\"j\": [\"\\ud83d\"]}}"})
    void anUnpairedSurrogateInAnExtraFieldIsRefused(String value) throws Exception {
        // as Python's json writes it: a lone surrogate as a \\u escape
        ObjectNode node = syslogNode();
        node.set("tags", DatalakeJson.MAPPER.readTree(value));

        InvalidMetadataException e = rejected(node);

        assertEquals("tags", e.field());
        assertEquals("metadata field 'tags' must be Unicode text, without an unpaired surrogate (U+D800 to U+DFFF),"
                + " in its name, strings and keys.", e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"x\\ud800 | x\\ud800", "a\\u0001\\udfff | a\\u0001\\udfff"})
    void anUnpairedSurrogateInAnExtraFieldsNameIsRefusedAndNamedEscaped(String escaped, String named) throws Exception {
        // Jackson refuses one in a JSON name as it reads the header (Python's json reads it; DynamoDB could not store it)
        String syslog = Fixtures.SYSLOG_JSON.strip();
        String json = syslog.substring(0, syslog.length() - 1) + ", \"" + escaped + "\": 1}";
        assertEquals("metadata", assertThrows(InvalidMetadataException.class, () -> MetadataParser.parse(json)).field());
        // a caller's own fields are checked alike, and the message shows the name escaped, as a queue attribute can carry it
        String name = DatalakeJson.MAPPER.readTree("\"" + escaped + "\"").textValue();
        Metadata s = Fixtures.syslog();

        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> new Metadata(s.start(), s.end(),
                s.path(), s.workId(), s.where(), s.what(), s.id(), s.hash(), Map.of(name, IntNode.valueOf(1))));

        assertEquals(named, e.field());
        assertEquals("metadata field '" + named + "' must be Unicode text, without an unpaired surrogate (U+D800 to"
                + " U+DFFF), in its name, strings and keys.", e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"'' | 1 | ''", "x | {\"\": 1} | x", "x | [{\"a\": {\"\": null}}] | x"})
    void anEmptyNameOrKeyDynamoDbCannotStoreIsRefused(String name, String value, String named) throws Exception {
        ObjectNode node = syslogNode();
        node.set(name, DatalakeJson.MAPPER.readTree(value));

        InvalidMetadataException e = rejected(node);

        assertEquals(named, e.field());
        assertEquals("metadata field '" + named + "' must not have an empty name or hold an object with an empty key,"
                + " which DynamoDB cannot store.", e.getMessage());
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
        "2015-3-", "2015-03-20T00:05:20+", "2015-03-20TUTC", "2015-03-20T24:61Z", "2015-03-20T00:05:20+2400",
        "2015-03-20T00:05:20 utc", "2015-03-20T00:05:20utc", "2015-03-20T00:05:20 Utc", "2015-03-20T00:05:20 gmt",
        "2015-03-20T00:05:20.5 utc"})
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
    @ValueSource(strings = {"/", "/var/log/syslog.1", "C:\\logs\\app.log", "d:\\x", "C:\\x\ny", "C:\\\rx", "C:\\\u2028x"})
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
        node.put("customer", "secret-customer");

        String text = parse(node).toString();

        assertTrue(text.contains("syslog") && text.contains("webserver02"));
        assertTrue(!text.contains("secret-") && !text.contains("customer") && !text.contains("/var/log"), text);
    }
}
