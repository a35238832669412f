package datalake.records;

/** Metadata documents shared by the tests: the worked example of the datalake-common spec. */
final class Fixtures {
    static final String SYSLOG_JSON = """
            {
              "version": 0,
              "start": 1426809920345,
              "end": 1426895999114,
              "path": "/var/log/syslog.1",
              "work_id": null,
              "where": "webserver02",
              "what": "syslog",
              "id": "6309e115c2914d0f8622973422626954",
              "hash": "a3e75ee4f45f676422e038f2c116d000"
            }""";

    static Metadata syslog() {
        return MetadataParser.parse(SYSLOG_JSON);
    }

    private Fixtures() {
    }
}
