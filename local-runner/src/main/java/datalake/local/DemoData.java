package datalake.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A small dataset that shows every kind of query: two servers' syslogs for today and yesterday, an
 * nginx log spanning three days, a job's outputs under one work_id, an instant report, and a backup
 * feed that stopped three days ago (the explorer page marks it stale).
 */
final class DemoData {
    static final String WORK_ID = "demo-job-1";
    private static final long HOUR = 3_600_000L;
    private static final long DAY = 24 * HOUR;

    private DemoData() {
    }

    /** Pushes the dataset; times are relative to {@code now} so the example queries find them. */
    static List<Pusher.Pushed> push(Pusher pusher, long now, Path scratch) throws IOException {
        long today = Math.floorDiv(now, DAY) * DAY;
        List<Pusher.Pushed> pushed = new ArrayList<>();
        for (String where : List.of("webserver01", "webserver02")) {
            for (int daysAgo = 1; daysAgo >= 0; daysAgo--) {
                long start = today - daysAgo * DAY + HOUR;
                pushed.add(pusher.push(file(scratch, where + "-syslog-" + daysAgo, "syslog line from " + where),
                        new Pusher.FileFacts("syslog", where, start, start + 8 * HOUR, null, "/var/log/syslog")));
            }
        }
        long nginxStart = today - 2 * DAY + 12 * HOUR;
        pushed.add(pusher.push(file(scratch, "nginx", "GET / 200"),
                new Pusher.FileFacts("nginx", "webserver01", nginxStart, nginxStart + 2 * DAY, null,
                        "/var/log/nginx/access.log")));
        for (String part : List.of("part-0", "part-1")) {
            pushed.add(pusher.push(file(scratch, part, "result " + part),
                    new Pusher.FileFacts("job-output", "worker03", today + 2 * HOUR, today + 3 * HOUR, WORK_ID,
                            "/srv/jobs/" + part)));
        }
        pushed.add(pusher.push(file(scratch, "report", "weekly report"),
                new Pusher.FileFacts("weekly-report", "reporting", today + HOUR, null, null, "/srv/report.txt")));
        long backupStart = today - 4 * DAY + 22 * HOUR;
        pushed.add(pusher.push(file(scratch, "backup", "backup manifest"),
                new Pusher.FileFacts("backup", "fileserver01", backupStart, backupStart + 2 * HOUR, null,
                        "/srv/backup/manifest.txt")));
        return pushed;
    }

    private static Path file(Path dir, String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name + ".txt"), content + "\n", StandardCharsets.UTF_8);
    }
}
