package datalake.query;

import datalake.records.Keys.WhatWhereKey;
import datalake.dynamodb.StoredRecord;
import datalake.records.MetadataRules;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

/**
 * {@code /v0/archive/feeds/[?what=W][&cursor=C]}: every WHAT and WHERE the latest table knows, with
 * its newest file and that file's age, 100 a page. Pages follow the table's scan order (each page is
 * sorted by what and where for reading); the cursor is the scan position, sealed like the files
 * route's cursors and bound to the {@code what} it was made for.
 *
 * <p>A feed's newest file is what {@code /latest} answers for it ({@link LatestFinder#fromEntry}): its
 * entry, unless the entry starts more than 24 hours ahead; then the newest file of the default lookback,
 * or no feed at all when there is none (a page's such entries are scanned concurrently). Its age is now
 * minus that file's end (its start for an instant), never below 0: how long ago the last data it
 * delivered ends, which is what tells a stalled feed from a live one.
 */
final class FeedsPager {
    /** One feed: its newest file, and how old that file's data is at the time of the request. */
    record Feed(StoredRecord latest, long ageMs) {
    }

    /** A page of feeds, and the position of the next page, or null on the last. */
    record FeedsPage(List<Feed> feeds, Cursor next) {
    }

    private static final Comparator<Feed> READING_ORDER = Comparator
            .comparing((Feed f) -> f.latest().what())
            .thenComparing(f -> f.latest().where());

    private final LatestTable table;
    private final LatestFinder finder;
    private final ExecutorService scans;
    private final Clock clock;
    private final int pageSize;
    private final int readLimit;
    private final int maxReads;

    /**
     * @param readLimit items one scan call reads
     * @param maxReads  scan calls one page may make: a rare WHAT in a large table then takes several
     *                  short pages instead of one slow request
     * @param scans     runs the day-bucket scans of a page's entries that start too far ahead, as many
     *                  at a time as it has threads; never the finder's executor
     */
    FeedsPager(LatestTable table, LatestFinder finder, ExecutorService scans, Clock clock, int pageSize,
            int readLimit, int maxReads) {
        this.table = table;
        this.finder = finder;
        this.scans = scans;
        this.clock = clock;
        this.pageSize = pageSize;
        this.readLimit = readLimit;
        this.maxReads = maxReads;
    }

    /** @param finder the latest of a feed whose entry starts too far ahead, read on the same table */
    static FeedsPager forApi(LatestTable table, LatestFinder finder, ExecutorService scans, Clock clock) {
        return new FeedsPager(table, finder, scans, clock, 100, 200, 50);
    }

    /** The JSON answer of the route for these query parameters. */
    String answer(Map<String, String> params, Links links) {
        String what = FilesQueryParser.present(params, "what");
        String cursorText = FilesQueryParser.present(params, "cursor");
        Cursor cursor = cursorText == null ? null : decode(what, cursorText);
        if (what != null && !MetadataRules.isSlug(what)) {
            // No feed can have such a WHAT: nothing to read.
            return ResponseJson.feeds(List.of(), null, links);
        }
        FeedsPage page = page(what, cursor == null ? null : cursor.after());
        String next = page.next() == null ? null : nextUrl(links, what, CursorCodec.encode(fingerprint(what), page.next()));
        return ResponseJson.feeds(page.feeds(), next, links);
    }

    FeedsPage page(String what, String after) {
        long now = clock.millis();
        List<StoredRecord> found = new ArrayList<>(pageSize + 1);
        String position = after;
        int reads = 0;
        do {
            RecordsTable.Slice slice = table.scan(what, position, readLimit);
            reads++;
            position = slice.lastKey();
            for (StoredRecord record : slice.records()) {
                found.add(record);
                if (found.size() > pageSize) {
                    // One more than the page: the page ends at its last record, and more follow.
                    position = found.get(pageSize - 1).whatWhereKey();
                    found.remove(pageSize);
                    return new FeedsPage(feeds(found, now), new Cursor(null, position));
                }
            }
        } while (position != null && reads < maxReads);
        return new FeedsPage(feeds(found, now), position == null ? null : new Cursor(null, position));
    }

    private List<Feed> feeds(List<StoredRecord> entries, long now) {
        List<Feed> feeds = new ArrayList<>(entries.size());
        for (Optional<StoredRecord> found : finder.fromEntries(entries, LatestFinder.DEFAULT_LOOKBACK_DAYS, scans)) {
            found.ifPresent(newest -> feeds.add(new Feed(newest, Math.max(0, now - newest.endOrStart()))));
        }
        feeds.sort(READING_ORDER);
        return feeds;
    }

    private static Cursor decode(String what, String text) {
        Cursor cursor = CursorCodec.decode(fingerprint(what), text);
        if (cursor.bucket() != null || cursor.after() == null || cursor.nextWhere() != null) {
            throw invalidCursor();
        }
        try {
            WhatWhereKey.parse(cursor.after());
        } catch (IllegalArgumentException notAKey) {
            throw invalidCursor();
        }
        return cursor;
    }

    private static RequestRejectedException invalidCursor() {
        return RequestRejectedException.badRequest(ErrorCodes.INVALID_CURSOR,
                "The cursor is not valid; use the next URL exactly as it was returned, or start again without a cursor.");
    }

    private static String nextUrl(Links links, String what, String cursor) {
        return links.baseUrl() + Route.FEEDS.template() + "?"
                + (what == null ? "" : "what=" + Links.encode(what) + "&") + "cursor=" + Links.encode(cursor);
    }

    /** Binds a cursor to the {@code what} of its query, as files cursors are bound to theirs. */
    static String fingerprint(String what) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(("feeds;" + (what == null ? "*" : what.length() + ":" + what)).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
