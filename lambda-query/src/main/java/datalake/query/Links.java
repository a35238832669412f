package datalake.query;

import datalake.records.Times;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.StringJoiner;

/** The absolute URLs the API hands out, all under one base URL (scheme, host, stage). */
record Links(String baseUrl) {

    /** {@code <base>/v0/archive/files/<id>/data}: a record's {@code http_url}. */
    String fileData(String id) {
        return baseUrl + "/v0/archive/files/" + pathSegment(id) + "/data";
    }

    /**
     * The {@code next} URL: the query's own parameters and the cursor. Times are ISO-8601 with
     * milliseconds, which read back exactly: as numbers, milliseconds up to 100,000,000,000 (before
     * 1973, and every negative time) would read back as seconds, another query than the cursor's.
     */
    String next(FilesQuery query, String cursor) {
        StringJoiner params = new StringJoiner("&");
        params.add("what=" + encode(query.what()));
        if (query.where() != null) {
            params.add("where=" + encode(query.where()));
        }
        if (query instanceof FilesQuery.ByTime time) {
            params.add("start=" + encode(Times.toIso(time.start())));
            params.add("end=" + encode(Times.toIso(time.end())));
        } else if (query instanceof FilesQuery.ByWorkId work) {
            params.add("work_id=" + encode(work.workId()));
        }
        params.add("cursor=" + encode(cursor));
        return baseUrl + "/v0/archive/files/?" + params;
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** Percent-encodes all but RFC 3986's unreserved characters. */
    static String pathSegment(String value) {
        return encode(value).replace("+", "%20");
    }
}
