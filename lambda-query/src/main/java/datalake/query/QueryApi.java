package datalake.query;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import datalake.lambda.JsonLog;
import datalake.records.InvalidMetadataException;
import datalake.records.Metadata;
import datalake.records.MetadataParser;
import datalake.records.Record;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;

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
    /** what, where and work_id are slugs; longer ones could not be keys of a stored record. */
    private static final Pattern SLUG = Pattern.compile("[a-z0-9_-]{1,512}");
    private static final int MAX_ID_LENGTH = 128;

    private final QueryConfig config;
    private final ObjectStore files;
    private final TimeQueryPager timePager;
    private final WorkIdQueryPager workIdPager;
    private final LatestFinder latestFinder;
    /** Null without a latest table: the feeds route then answers 404 NoLatestTable. */
    private final FeedsPager feeds;
    private final CoverageReader coverage;
    private final String version;

    /** The function's log: request lines, faults, items that are no records. */
    static final JsonLog LOG = JsonLog.toStandardOutput("datalake.query");

    /**
     * The API on AWS, as the handler builds it (and SnapStart priming, the local runner and the tests,
     * on other clients): the records table and its GSI, the latest table when the configuration names
     * one, the storage bucket.
     */
    public static QueryApi forAws(QueryConfig config, QueryClients clients) {
        return new QueryApi(config,
                new DynamoRecordsTable(clients.dynamoDb(), config.recordsTable()),
                config.latestTable() == null ? null : new DynamoLatestTable(clients.dynamoDb(), config.latestTable()),
                config.latestTable() == null ? null : new DynamoLatestFeeds(clients.dynamoDb(), config.latestTable()),
                new S3ObjectStore(clients.s3(), clients.presigner()),
                Clock.systemUTC());
    }

    /**
     * @param latest the latest table, or null to find the latest file by scanning day buckets
     * @param clock  today's date for latest lookbacks
     */
    public QueryApi(QueryConfig config, RecordsTable records, LatestTable latest, ObjectStore files, Clock clock) {
        this(config, records, latest, null, files, clock, TimeQueryPager.Limits.API);
    }

    /** @param feeds the latest table as a list of feeds, or null when there is no latest table */
    public QueryApi(QueryConfig config, RecordsTable records, LatestTable latest, LatestFeeds feeds, ObjectStore files,
            Clock clock) {
        this(config, records, latest, feeds, files, clock, TimeQueryPager.Limits.API);
    }

    QueryApi(QueryConfig config, RecordsTable records, LatestTable latest, ObjectStore files, Clock clock,
            TimeQueryPager.Limits limits) {
        this(config, records, latest, null, files, clock, limits);
    }

    QueryApi(QueryConfig config, RecordsTable records, LatestTable latest, LatestFeeds feeds, ObjectStore files,
            Clock clock, TimeQueryPager.Limits limits) {
        this.config = config;
        this.files = files;
        ExecutorService executor = readExecutor();
        this.timePager = new TimeQueryPager(records, executor, limits);
        this.workIdPager = new WorkIdQueryPager(records, limits.pageSize(), limits.readLimit());
        this.latestFinder = new LatestFinder(records, latest, executor, clock);
        this.feeds = feeds == null ? null : FeedsPager.forApi(feeds, clock);
        this.coverage = new CoverageReader(records, executor);
        this.version = buildVersion();
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
                case ARCHIVE -> Responses.json(200, ResponseJson.archive(config.storageUrl()));
                case ENVIRONMENT -> Responses.json(200, ResponseJson.environment(version));
                case FILES -> files(request.query(), links);
                case FILE_METADATA -> Responses.json(200, ResponseJson.metadata(fileMetadata(match.parameter(0))));
                case FILE_DATA -> fileData(match.parameter(0));
                case LATEST -> Responses.json(200, ResponseJson.record(
                        latest(match.parameter(0), match.parameter(1), request.query()), links));
                case LATEST_DATA -> redirectTo(latest(match.parameter(0), match.parameter(1), request.query()));
                case FEEDS -> Responses.json(200, feeds().answer(request.query(), links));
                case COVERAGE -> Responses.json(200, coverage.answer(request.query()));
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

    private APIGatewayV2HTTPResponse files(Map<String, String> params, Links links) {
        FilesQuery query = FilesQueryParser.parse(params);
        String cursorText = FilesQueryParser.present(params, "cursor");
        Cursor cursor = cursorText == null ? null : CursorCodec.decode(query, cursorText);
        if (!isSlug(query.what()) || (query.where() != null && !isSlug(query.where()))
                || (query instanceof FilesQuery.ByWorkId w && !isSlug(w.workId()))) {
            // No stored file can have such a what, where or work_id: nothing to read.
            return Responses.json(200, ResponseJson.files(List.of(), null, links));
        }
        Page page = query instanceof FilesQuery.ByTime time
                ? timePager.page(time, cursor)
                : workIdPager.page((FilesQuery.ByWorkId) query, cursor);
        String next = page.next() == null ? null : links.next(query, CursorCodec.encode(query, page.next()));
        return Responses.json(200, ResponseJson.files(page.records(), next, links));
    }

    private Metadata fileMetadata(String id) {
        Map<String, String> userMetadata = storedFile(id);
        String json = userMetadata.get("datalake");
        try {
            return MetadataParser.parse(json);
        } catch (InvalidMetadataException e) {
            throw RequestRejectedException.noSuchFile("The object of file " + abbreviate(id)
                    + " has no valid datalake metadata, so it is not a datalake file.");
        }
    }

    private APIGatewayV2HTTPResponse fileData(String id) {
        storedFile(id);
        return Responses.redirect(files.presignedGet(config.storageBucket(), objectKey(id), LINK_VALIDITY));
    }

    /** The user metadata of the object {@code <storage bucket>/<id>/data}, where the datalake client puts files. */
    private Map<String, String> storedFile(String id) {
        if (!isFileId(id)) {
            throw RequestRejectedException.noSuchFile("There is no file with id " + abbreviate(id) + ".");
        }
        return files.userMetadata(config.storageBucket(), objectKey(id)).orElseThrow(() ->
                RequestRejectedException.noSuchFile("There is no file with id " + id + "."));
    }

    static String objectKey(String id) {
        return id + "/data";
    }

    private Record latest(String what, String where, Map<String, String> params) {
        int lookback = lookback(FilesQueryParser.present(params, "lookback"));
        Optional<Record> found = isSlug(what) && isSlug(where)
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

    private APIGatewayV2HTTPResponse redirectTo(Record record) {
        String url = record.url();
        int slash = url.startsWith("s3://") ? url.indexOf('/', 5) : -1;
        if (slash < 0) {
            throw new IllegalStateException("the record of file " + record.metadata().id() + " has no s3:// url");
        }
        return Responses.redirect(files.presignedGet(url.substring(5, slash), url.substring(slash + 1), LINK_VALIDITY));
    }

    private FeedsPager feeds() {
        if (feeds == null) {
            throw new RequestRejectedException(404, ErrorCodes.NO_LATEST_TABLE,
                    "This API keeps no latest table (DATALAKE_LATEST_TABLE), so it cannot list feeds.");
        }
        return feeds;
    }

    static boolean isSlug(String value) {
        return SLUG.matcher(value).matches();
    }

    /** The ids the datalake client and common-records allow: 1-128 characters, no ':', '/', blanks or controls. */
    static boolean isFileId(String id) {
        if (id.isEmpty() || id.length() > MAX_ID_LENGTH) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c == ':' || c == '/' || c == '\\' || Character.isWhitespace(c) || Character.isISOControl(c)) {
                return false;
            }
        }
        return !id.equals(".") && !id.equals("..");
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
    private static void logFault(Exception e) {
        LOG.fault("request failed", e, g -> { });
    }

    private static String abbreviate(String s) {
        return FilesQueryParser.abbreviate(s);
    }

    private static ExecutorService readExecutor() {
        AtomicInteger count = new AtomicInteger();
        ThreadPoolExecutor executor = new ThreadPoolExecutor(READ_THREADS, READ_THREADS, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), runnable -> {
                    Thread thread = new Thread(runnable, "datalake-query-read-" + count.incrementAndGet());
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
