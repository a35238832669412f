package datalake.query;

import static datalake.query.TestFiles.DAY;

import datalake.records.Metadata;
import datalake.records.ShardMap;
import datalake.records.TimeBuckets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Random files over a dozen days and a query window among them, for the properties that page through
 * a time query ({@link TimeQueryPagerPropertiesTest}, {@link NextLinkPropertiesTest}); and which files
 * such a query must return.
 */
final class FileLayouts {
    private FileLayouts() {
    }

    /** A file: its day after the anchor (0..11), its offset in the day, its length in days (-1: an instant), its WHERE. */
    record FileSpec(int day, long offset, int days, int where) {
    }

    /** A query window: its first and last day after the anchor, each with an offset in the day. */
    record Window(int firstDay, long firstOffset, int lastDay, long lastOffset) {
        long start(long anchor) {
            return anchor + firstDay * DAY + firstOffset;
        }

        long end(long anchor) {
            return Math.max(start(anchor), anchor + lastDay * DAY + lastOffset);
        }
    }

    /** Up to {@code maxFiles} files, each with one of {@code wheres} WHEREs. */
    static Arbitrary<List<FileSpec>> files(int wheres, int maxFiles) {
        Arbitrary<FileSpec> file = Combinators.combine(
                Arbitraries.integers().between(0, 11),
                Arbitraries.longs().between(0, DAY - 1),
                Arbitraries.integers().between(-1, 4),
                Arbitraries.integers().between(0, wheres - 1)).as(FileSpec::new);
        return file.list().ofMaxSize(maxFiles);
    }

    /**
     * How the WHAT is sharded, relative to the anchor day: not at all, or into {@code shards} from day
     * {@code firstDay} (often inside the files' dozen days, so that query windows cross it), and into
     * {@code thenShards} (1: unsharded again) from {@code firstDay + 1 + laterDays} when that is not negative.
     */
    record Sharding(boolean sharded, int firstDay, int shards, int laterDays, int thenShards) {
        ShardMap map(long anchor) {
            if (!sharded) {
                return ShardMap.EMPTY;
            }
            long first = TimeBuckets.bucketOf(anchor) + firstDay;
            ShardMap map = ShardMap.EMPTY.with("w", new ShardMap.Entry(first, shards));
            return laterDays < 0 ? map : map.with("w", new ShardMap.Entry(first + 1 + laterDays, thenShards));
        }
    }

    static Arbitrary<Sharding> shardings() {
        return Combinators.combine(
                Arbitraries.of(true, true, true, false),
                Arbitraries.integers().between(-1, 12),
                Arbitraries.integers().between(2, 6),
                Arbitraries.integers().between(-6, 8),
                Arbitraries.integers().between(1, 4)).as(Sharding::new);
    }

    static Arbitrary<Window> windows() {
        return Combinators.combine(
                Arbitraries.integers().between(0, 11),
                Arbitraries.longs().between(0, DAY - 1),
                Arbitraries.integers().between(0, 12),
                Arbitraries.longs().between(0, DAY - 1)).as(Window::new);
    }

    /** The metadata of the files, WHAT "w", ids f0000, f0001, … in order. */
    static List<Metadata> metadata(List<FileSpec> specs, long anchor, List<String> wheres) {
        List<Metadata> files = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            FileSpec spec = specs.get(i);
            long start = anchor + spec.day() * DAY + spec.offset();
            Long end = spec.days() < 0 ? null : start + spec.days() * DAY + spec.offset() / 2;
            files.add(TestFiles.file(String.format("f%04d", i), "w", wheres.get(spec.where()), start, end));
        }
        return files;
    }

    /** The ids of the files that meet [start, end], of one WHERE unless it is null. */
    static Set<String> matching(List<Metadata> files, long start, long end, String where) {
        Set<String> ids = new HashSet<>();
        for (Metadata file : files) {
            if (TestFiles.intersects(file, start, end) && (where == null || where.equals(file.where()))) {
                ids.add(file.id());
            }
        }
        return ids;
    }
}
