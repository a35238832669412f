package datalake.records;

import static datalake.records.TimeBuckets.DAY_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import datalake.records.Keys.RangeKey;
import datalake.records.Keys.TimeIndexKey;
import datalake.records.Keys.WorkIdIndexKey;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The invariants of the record format, over generated metadata. */
class RecordPropertiesTest {
    private static final String SLUG_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-_";

    @Provide
    Arbitrary<Metadata> metadata() {
        Arbitrary<String> slug = Arbitraries.strings().withChars(SLUG_CHARS).ofMinLength(1).ofMaxLength(20);
        Arbitrary<String> workId = slug.filter(s -> !s.equals("null")).injectNull(0.4);
        Arbitrary<String> id = Arbitraries.strings().alpha().numeric().withChars("-_.").ofMinLength(1).ofMaxLength(128);
        Arbitrary<String> hash = Arbitraries.strings().withChars("0123456789abcdef").ofLength(32);
        Arbitrary<Long> start = Arbitraries.longs().between(-400 * DAY_MS * 365, 400 * DAY_MS * 365);
        Arbitrary<Long> length = Arbitraries.longs().between(0, 29 * DAY_MS).injectNull(0.2);
        return Combinators.combine(start, length, workId, slug, slug, id, hash)
                .as((s, len, w, where, what, i, h) ->
                        new Metadata(s, len == null ? null : s + len, "/data/file", w, where, what, i, h));
    }

    @Property
    void oneRecordPerBucketTheFileSpans(@ForAll("metadata") Metadata m) {
        List<Record> records = new RecordFactory().records(m, "s3://b/k", 1, 2);

        long first = Math.floorDiv(m.start(), DAY_MS);
        long last = Math.floorDiv(m.endOrStart(), DAY_MS);
        assertEquals(last - first + 1, records.size());
        Set<Long> buckets = new HashSet<>();
        for (Record r : records) {
            buckets.add(r.bucket());
            long bucketStart = r.bucket() * DAY_MS;
            long bucketEnd = bucketStart + DAY_MS - 1;
            // the bucket really intersects the file's range
            assertEquals(true, bucketStart <= m.endOrStart() && m.start() <= bucketEnd);
        }
        assertEquals(records.size(), buckets.size());
    }

    @Property
    void everyKeyParsesBackToItsParts(@ForAll("metadata") Metadata m) {
        for (Record r : new RecordFactory().records(m, "s3://b/k", 1, 2)) {
            assertEquals(new TimeIndexKey(r.bucket(), m.what()), TimeIndexKey.parse(r.timeIndexKey().toString()));
            assertEquals(new RangeKey(m.where(), m.id()), RangeKey.parse(r.rangeKey().toString()));
            WorkIdIndexKey w = WorkIdIndexKey.parse(r.workIdIndexKey().toString());
            assertEquals(m.workId() == null ? "null" + m.id() : m.workId(), w.value());
            assertEquals(m.what(), w.what());
        }
    }

    @Property
    void jsonRoundTrips(@ForAll("metadata") Metadata m, @ForAll long createTime, @ForAll long size) {
        assertEquals(m, DatalakeJson.parseMetadata(DatalakeJson.toJson(m)));
        for (Record r : new RecordFactory(30, 5).records(m, "s3://b/ké y", createTime, size)) {
            assertEquals(r, DatalakeJson.parseRecord(DatalakeJson.toJson(r)));
        }
    }
}
