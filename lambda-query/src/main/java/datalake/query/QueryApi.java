package datalake.query;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import datalake.dynamodb.CachedShardMap;
import datalake.dynamodb.ShardMapTable;
import datalake.dynamodb.StoredRecord;
import datalake.lambda.JsonLog;
import datalake.records.MetadataRules;
import datalake.records.ShardMapSource;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The datalake v0 HTTP API over the records table and the storage bucket: routes an API Gateway
 * (HTTP API, payload 2.0) request to its endpoint and answers with the v0 JSON. Bad input is a 4xx
 * with a v0 error code; only DynamoDB or S3 failing (503) or a fault here (500) is a 5xx.
 */
public final class QueryApi {
    /** How long a presigned download link of {@code /data} stays valid. */
    static final Duration LINK_VALIDITY = Duration.ofMinutes(15);
    /** Concurrent DynamoDB reads of one request (day buckets of a time query, of a latest scan). */
    static final int READ_THREADS = 32;
    /**
     * Concurrent latest scans of one {@code /feeds/} page (entries more than a day ahead), each reading
     * its buckets a wave at a time on the read threads.
     */
    static final int FEED_SCAN_THREADS = 4;
    /** The name of the function's log lines ({@code logger}). */
    static final String LOGGER = "datalake.query";

    private final QueryConfig config;
    private final JsonLog log;
    private final ObjectStore files;
    private final TimeQueryPager timePager;
    private final WorkIdQueryPager workIdPager;
    private final LatestFinder latestFinder;
    /** Null without a latest table: the feeds route then answers 404 NoLatestTable. */
    private final FeedsPager feeds;
    private final CoverageReader coverage;
    /** The request's time: {@code now} in a files or coverage query. */
    private final Clock clock;
    private final String version;

    private QueryApi(Builder b) {
        this.config = Objects.requireNonNull(b.config, "config");
        this.log = Objects.requireNonNull(b.log, "log");
        UnreadableItems unreadable = new UnreadableItems(log, config.functionName());
        RecordsTable records = b.records != null ? b.records
                : new DynamoRecordsTable(aws(b).dynamoDb(), config.recordsTable(), unreadable);
        LatestTable latest = b.latest != null || b.aws == null || config.latestTable() == null ? b.latest
                : new DynamoLatestTable(b.aws.dynamoDb(), config.latestTable(), unreadable);
        this.files = b.files != null ? b.files : new S3ObjectStore(aws(b).s3(), aws(b).presigner());
        this.clock = Objects.requireNonNull(b.clock, "clock");
        ShardMapSource shards = b.shards != null ? b.shards : b.aws == null ? ShardMapSource.NONE
                : new CachedShardMap(new ShardMapTable(b.aws.dynamoDb(), config.recordsTable()), clock);
        ExecutorService executor = readExecutor("datalake-query-read-", READ_THREADS);
        // A day's shards are read on threads of their own: the day reads wait for them, never the reverse.
        BucketReader buckets = new BucketReader(records, shards, readExecutor("datalake-query-shard-", READ_THREADS));
        this.timePager = new TimeQueryPager(buckets, executor, b.limits);
        // A work-id page reads what it returns and one more: its records are dense, unlike a time window's.
        this.workIdPager = new WorkIdQueryPager(records, b.limits.pageSize(), b.limits.pageSize() + 1);
        this.latestFinder = new LatestFinder(buckets, latest, executor, clock);
        // A feed's scan waits for its bucket reads: the scans run on threads of their own, as the shards do.
        this.feeds = latest == null ? null : FeedsPager.forApi(latest, latestFinder,
                readExecutor("datalake-query-feed-", FEED_SCAN_THREADS), clock);
        this.coverage = new CoverageReader(buckets, executor);
        this.version = buildVersion();
    }

    private static QueryClients aws(Builder b) {
        return Objects.requireNonNull(b.aws, "records and files, or the clients of QueryApi.forAws");
    }

    /**
     * The API on AWS, as the handler builds it (and SnapStart priming, the local runner and the tests, on
     * other clients): the records table and its GSI, its shard map (read at most once a minute), the latest
     * table when the configuration names one, the storage bucket. They are made at {@link Builder#build()},
     * so that they report unreadable items to the builder's log; the builder may still change any part (a
     * test's log or clock).
     */
    public static Builder forAws(QueryConfig config, QueryClients clients) {
        Builder builder = builder().config(config);
        builder.aws = Objects.requireNonNull(clients, "clients");
        return builder;
    }

    /** An API on collaborators of one's own (fakes in unit tests); the configuration, records and files are required. */
    static Builder builder() {
        return new Builder();
    }

    /** The parts of a {@link QueryApi}; unset optional parts take the defaults named on each setter. */
    public static final class Builder {
        private QueryConfig config;
        private QueryClients aws;
        private RecordsTable records;
        private LatestTable latest;
        private ShardMapSource shards;
        private ObjectStore files;
        private Clock clock = Clock.systemUTC();
        private JsonLog log = JsonLog.toStandardOutput(LOGGER);
        private TimeQueryPager.Limits limits = TimeQueryPager.Limits.API;

        private Builder() {
        }

        Builder config(QueryConfig configuration) {
            this.config = configuration;
            return this;
        }

        Builder records(RecordsTable table) {
            this.records = table;
            return this;
        }

        /** Default (but with {@link #forAws}): none; {@code /latest} then scans the day buckets, and {@code /feeds/} is 404. */
        Builder latest(LatestTable table) {
            this.latest = table;
            return this;
        }

        /** Default: the records table's shard map with {@link #forAws}, else none sharded. */
        Builder shards(ShardMapSource source) {
            this.shards = source;
            return this;
        }

        Builder files(ObjectStore store) {
            this.files = store;
            return this;
        }

        /** Default: {@link TimeQueryPager.Limits#API}. */
        Builder limits(TimeQueryPager.Limits pagerLimits) {
            this.limits = pagerLimits;
            return this;
        }

        /** Today's date for latest lookbacks and feed ages, and {@code now} in queries; default: the system clock, UTC. */
        public Builder clock(Clock source) {
            this.clock = source;
            return this;
        }

        /** Request lines, faults and unreadable items; default: JSON lines on standard output. */
        public Builder log(JsonLog sink) {
            this.log = sink;
            return this;
        }

        public QueryApi build() {
            return new QueryApi(this);
        }
    }

    /** The function's log: the handler writes its request lines here too. */
    JsonLog log() {
        return log;
    }

    public APIGatewayV2HTTPResponse handle(APIGatewayV2HTTPEvent event) {
        try {
            ApiRequest request = ApiRequest.from(event, config.httpUrl());
            Route.Match match = Route.match(request.path()).orElseThrow(() -> new RequestRejectedException(404,
                    ErrorCodes.NO_SUCH_ROUTE, "There is no " + abbreviate(request.path())
                    + " in this API; see docs/openapi.yaml for its routes."));
            if (!request.method().equals(Route.METHOD)) {
                return Responses.json(405, ResponseJson.error(ErrorCodes.METHOD_NOT_ALLOWED,
                        "Use GET for " + match.route().template() + "."), Map.of("allow", Route.METHOD));
            }
            Links links = new Links(request.baseUrl());
            return switch (match.route()) {
                case ARCHIVE -> archive();
                case ENVIRONMENT -> environment();
                case FILES -> files(request.query(), links);
                case FILE_METADATA -> fileMetadata(match.parameter(0));
                case FILE_DATA -> fileData(match.parameter(0));
                case LATEST -> latest(match.parameter(0), match.parameter(1), request.query(), links);
                case LATEST_DATA -> latestData(match.parameter(0), match.parameter(1), request.query());
                case FEEDS -> feeds(request.query(), links);
                case COVERAGE -> coverage(request.query());
            };
        } catch (RequestRejectedException e) {
            return Responses.json(e.status(), ResponseJson.error(e.code(), e.getMessage()));
        } catch (SdkException e) {
            return serverFault(e);
        } catch (RuntimeException e) {
            logFault(e);
            return Responses.json(500, ResponseJson.error(ErrorCodes.INTERNAL_ERROR,
                    "The query API failed on this request; try again, and report it if it persists."));
        }
    }

    // ---------------------------------------------------------------- the routes, one method each

    private APIGatewayV2HTTPResponse archive() {
        return Responses.json(200, ResponseJson.archive(config.storageUrl()));
    }

    private APIGatewayV2HTTPResponse environment() {
        return Responses.json(200, ResponseJson.environment(version));
    }

    private APIGatewayV2HTTPResponse files(Map<String, String> params, Links links) {
        FilesQuery query = FilesQueryParser.parse(params, clock.millis());
        String cursorText = FilesQueryParser.present(params, "cursor");
        Cursor cursor = cursorText == null ? null : CursorCodec.decode(query, cursorText);
        if (!MetadataRules.isSlug(query.what()) || (query.where() != null && !MetadataRules.isSlug(query.where()))
                || (query instanceof FilesQuery.ByWorkId w && !MetadataRules.isWorkId(w.workId()))) {
            // No stored file can have such a what, where or work_id (the ingester's rule): nothing to read.
            return Responses.json(200, ResponseJson.files(List.of(), null, links));
        }
        Page page = query instanceof FilesQuery.ByTime time
                ? timePager.page(time, cursor)
                : workIdPager.page((FilesQuery.ByWorkId) query, cursor);
        String next = page.next() == null ? null : links.next(query, CursorCodec.encode(query, page.next()));
        return Responses.json(200, ResponseJson.files(page.records(), next, links));
    }

    /**
     * The file's metadata as its object stores it, served whatever ingest rule it breaks (a hash of
     * another form, say) as long as it is a JSON object with a start time and the file's id.
     */
    private APIGatewayV2HTTPResponse fileMetadata(String id) {
        checkFileId(id);
        Map<String, String> stored = files.userMetadata(config.storageBucket(), objectKey(id))
                .orElseThrow(() -> noFileWithId(id));
        return Responses.json(200, ResponseJson.metadata(metadataOfFile(stored, id)));
    }

    /** The content of the same file {@link #fileMetadata} answers for, and of no other object. */
    private APIGatewayV2HTTPResponse fileData(String id) {
        checkFileId(id);
        String key = objectKey(id);
        ObjectStore.ObjectStart start = files.start(config.storageBucket(), key, ContentHeaders.MAGIC_LENGTH)
                .orElseThrow(() -> noFileWithId(id));
        JsonNode metadata = metadataOfFile(start.userMetadata(), id);
        JsonNode path = metadata.get("path");
        return redirect("File " + id, config.storageBucket(), key, start,
                path != null && path.isTextual() ? path.textValue() : null);
    }

    /**
     * The object's datalake metadata (its user metadata {@code datalake}) when it is a JSON object with a
     * start time, as every datalake file's is; else the object is no datalake file, whatever its key.
     */
    private static JsonNode datalakeMetadata(Map<String, String> userMetadata,
            Supplier<RequestRejectedException> notADatalakeFile) {
        JsonNode metadata = StoredJson.parseObject(userMetadata.get("datalake"));
        if (metadata == null || StoredJson.time(metadata.get("start")) == null) {
            throw notADatalakeFile.get();
        }
        return metadata;
    }

    /**
     * The datalake metadata of the object at file {@code id}'s key, which must name that id: an object
     * copied or written there from another file (the Python API served it as it was) is no file {@code id}.
     */
    private static JsonNode metadataOfFile(Map<String, String> userMetadata, String id) {
        JsonNode metadata = datalakeMetadata(userMetadata, () -> notADatalakeFile(id));
        String named = idOf(metadata);
        if (!id.equals(named)) {
            throw RequestRejectedException.noSuchFile("The object of file " + abbreviate(id)
                    + " holds the metadata of " + (named == null ? "no file id" : "file " + abbreviate(named))
                    + ", so there is no file " + abbreviate(id) + ".");
        }
        return metadata;
    }

    /** The id the metadata names, or null when it names none (no {@code id}, or one that is no string). */
    private static String idOf(JsonNode metadata) {
        JsonNode id = metadata.get("id");
        return id != null && id.isTextual() ? id.textValue() : null;
    }

    private static RequestRejectedException noFileWithId(String id) {
        return RequestRejectedException.noSuchFile("There is no file with id " + id + ".");
    }

    private static RequestRejectedException notADatalakeFile(String id) {
        return RequestRejectedException.noSuchFile("The object of file " + abbreviate(id)
                + " has no datalake metadata, so it is not a datalake file.");
    }

    private static void checkFileId(String id) {
        if (!isFileId(id)) {
            throw RequestRejectedException.noSuchFile("There is no file with id " + abbreviate(id) + ".");
        }
    }

    static String objectKey(String id) {
        return id + "/data";
    }

    private APIGatewayV2HTTPResponse latest(String what, String where, Map<String, String> params, Links links) {
        return Responses.json(200, ResponseJson.record(latestFile(what, where, params), links));
    }

    private StoredRecord latestFile(String what, String where, Map<String, String> params) {
        int lookback = lookback(FilesQueryParser.present(params, "lookback"));
        Optional<StoredRecord> found = MetadataRules.isSlug(what) && MetadataRules.isSlug(where)
                ? latestFinder.find(what, where, lookback) : Optional.empty();
        return found.orElseThrow(() -> RequestRejectedException.noSuchFile("No " + abbreviate(what)
                + " file from " + abbreviate(where) + " touches the last " + lookback
                + " days; give a larger lookback to look further back."));
    }

    static int lookback(String value) {
        if (value == null) {
            return LatestFinder.DEFAULT_LOOKBACK_DAYS;
        }
        String v = value.strip();
        if (v.matches("\\+?[0-9]{1,9}")) {
            int days = Integer.parseInt(v.startsWith("+") ? v.substring(1) : v);
            if (days <= LatestFinder.MAX_LOOKBACK_DAYS) {
                return days;
            }
        }
        throw RequestRejectedException.badRequest(ErrorCodes.INVALID_LOOKBACK, "Give lookback as a whole number of days"
                + " from 0 to " + LatestFinder.MAX_LOOKBACK_DAYS + ", not \"" + abbreviate(v) + "\".");
    }

    private APIGatewayV2HTTPResponse latestData(String what, String where, Map<String, String> params) {
        StoredRecord record = latestFile(what, where, params);
        String url = record.url();
        int slash = url.startsWith("s3://") ? url.indexOf('/', 5) : -1;
        if (slash < 6 || slash == url.length() - 1) {
            throw RequestRejectedException.noSuchFile("The latest " + record.what() + " file from " + record.where()
                    + " has no s3:// url, so there are no data to fetch.");
        }
        String bucket = url.substring(5, slash);
        String key = url.substring(slash + 1);
        ObjectStore.ObjectStart start = files.start(bucket, key, ContentHeaders.MAGIC_LENGTH).orElseThrow(() ->
                RequestRejectedException.noSuchFile("The latest " + record.what() + " file from " + record.where()
                        + " is no longer in its bucket."));
        // Overwritten by an object that is no datalake file, or another file (until the ingester re-indexes it).
        JsonNode stored = datalakeMetadata(start.userMetadata(), () -> RequestRejectedException.noSuchFile("The latest "
                + record.what() + " file from " + record.where() + " is no longer a datalake file in its bucket."));
        if (!record.id().equals(idOf(stored))) {
            throw RequestRejectedException.noSuchFile("The latest " + record.what() + " file from " + record.where()
                    + " was overwritten in its bucket by another file, so its data are gone.");
        }
        AttributeValue path = record.metadata().get("path");
        return redirect("The latest " + record.what() + " file from " + record.where(), bucket, key, start,
                path == null ? null : path.s());
    }

    /**
     * 302 to a presigned GET that S3 answers with the type guessed from the file's path and, for gzip
     * content, {@code Content-Encoding: gzip}, as the Python API answered {@code /data} itself.
     *
     * An archived file has no content to fetch until its owner restores it: 409 {@code FileArchived}.
     *
     * @param file the file, to name it in an answer
     * @param path the file's path, or null when its metadata has none
     */
    private APIGatewayV2HTTPResponse redirect(String file, String bucket, String key, ObjectStore.ObjectStart start,
            String path) {
        if (start.archive().isPresent()) {
            throw new RequestRejectedException(409, ErrorCodes.FILE_ARCHIVED, file + " is archived in "
                    + start.archive().get() + "; restore it in S3 first, then ask again.");
        }
        ContentHeaders headers = ContentHeaders.of(path, start.bytes());
        return Responses.redirect(files.presignedGet(bucket, key, LINK_VALIDITY, headers));
    }

    private APIGatewayV2HTTPResponse feeds(Map<String, String> params, Links links) {
        if (feeds == null) {
            throw new RequestRejectedException(404, ErrorCodes.NO_LATEST_TABLE,
                    "This API keeps no latest table (DATALAKE_LATEST_TABLE), so it cannot list feeds.");
        }
        return Responses.json(200, feeds.answer(params, links));
    }

    private APIGatewayV2HTTPResponse coverage(Map<String, String> params) {
        return Responses.json(200, coverage.answer(params, clock.millis()));
    }

    // ----------------------------------------------------------------

    /** The ids of stored files (common-records' rule) that are also one safe path segment: no '/', '\\', "." or "..". */
    static boolean isFileId(String id) {
        return MetadataRules.isId(id) && id.indexOf('/') < 0 && id.indexOf('\\') < 0
                && !id.equals(".") && !id.equals("..");
    }

    private APIGatewayV2HTTPResponse serverFault(SdkException e) {
        logFault(e);
        boolean ours = e instanceof AwsServiceException service && !service.isThrottlingException()
                && service.statusCode() >= 400 && service.statusCode() < 500;
        if (ours) {
            // DynamoDB or S3 refused what this function asked (permissions, a missing table): a fault here.
            return Responses.json(500, ResponseJson.error(ErrorCodes.INTERNAL_ERROR,
                    "The query API is misconfigured for its table or bucket; tell its operators."));
        }
        return Responses.json(503, ResponseJson.error(ErrorCodes.SERVICE_UNAVAILABLE,
                "The datalake's storage did not answer in time; try again shortly."));
    }

    /** The error and the top of its stack in one JSON line, no request data. */
    private void logFault(Exception e) {
        log.fault("request failed", e, g -> { });
    }

    private static String abbreviate(String s) {
        return FilesQueryParser.abbreviate(s);
    }

    private static ExecutorService readExecutor(String threadName, int threads) {
        AtomicInteger count = new AtomicInteger();
        ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), runnable -> {
                    Thread thread = new Thread(runnable, threadName + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        // Idle threads end, so that many QueryApi instances (tests, a local runner) do not pile up threads.
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }

    private static String buildVersion() {
        try (InputStream in = QueryApi.class.getResourceAsStream("/datalake-query-build.properties")) {
            if (in != null) {
                Properties properties = new Properties();
                properties.load(in);
                return properties.getProperty("version", "UNKNOWN");
            }
        } catch (IOException e) {
            // reported as UNKNOWN, as the v0 API does without a build stamp
        }
        return "UNKNOWN";
    }
}
