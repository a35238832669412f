package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.Select;

/**
 * The explorer page in headless Chromium against the local runner with its demo data and planted
 * data: a sensor feed of hourly files with six missing hours. The feeds table lists the demo feeds
 * and marks the stopped one stale; the sensor's hourly timeline shows the gap; paging through its
 * files (with the keyboard) shows each file once; a download link returns the file. The timeline is
 * one tab stop, reached by a skip link and walked with the arrow keys, its axis labelled at regular
 * intervals; every time on the page has one format, and one file is "1 file". An upper-case what gets
 * our sentence in place of the previous error; a work_id search that keeps an opened feed's where says
 * so and offers every where. A bar lists the files it counts, of the search that drew it; a late answer to an
 * earlier search, a failed search, a 403, times in seconds, a malformed link, Back and Forward, and blocked
 * site data each leave the page showing what was asked last. The test saves a screenshot (target/explorer.png).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ExplorerIT {
    private static final long HOUR = 3_600_000L;
    private static final long DAY = 24 * HOUR;
    private static final int HOURS = 150;
    private static final int GAP_FROM = 100;
    private static final int GAP_TO = 106;

    @TempDir
    static Path work;
    private RunnerHarness runner;
    private BrowserHarness browser;
    private long first;
    private List<String> sensorIds;

    @BeforeAll
    void startRunnerAndBrowser() throws Exception {
        browser = BrowserHarness.start();
        runner = RunnerHarness.start("explorer-it");
        first = (System.currentTimeMillis() / HOUR - HOURS - 2) * HOUR;
        sensorIds = runner.pushHourly("sensor", "probe01", first, HOURS, GAP_FROM, GAP_TO, work);
        runner.awaitFiles("sensor", first, first + HOURS * HOUR, sensorIds.size(), new LocalSigner(RunnerOptions.Auth.NONE));
        browser.driver.get(runner.api + "/");
    }

    @AfterAll
    void stop() throws Exception {
        try {
            if (browser != null) {
                browser.close();
            }
        } finally {
            if (runner != null) {
                runner.close();
            }
        }
    }

    private List<WebElement> all(String css) {
        return browser.driver.findElements(By.cssSelector(css));
    }

    private WebElement one(String css) {
        return browser.driver.findElement(By.cssSelector(css));
    }

    @Test
    @Order(1)
    void theFeedsTableListsTheDemoFeedsOldestFirstAndMarksTheStoppedOneStale() {
        browser.await(d -> all("#feeds tbody tr").size() >= 7);

        List<String> feeds = all("#feeds tbody tr").stream().map(r -> r.getDomAttribute("data-feed")).toList();
        assertTrue(feeds.containsAll(List.of("syslog:webserver01", "syslog:webserver02", "nginx:webserver01",
                "job-output:worker03", "weekly-report:reporting", "backup:fileserver01", "sensor:probe01")), feeds.toString());
        assertEquals("backup:fileserver01", feeds.get(0), "the oldest feed comes first");
        WebElement backup = one("#feeds tr[data-feed='backup:fileserver01']");
        assertTrue(backup.getDomAttribute("class").contains("stale"));
        assertEquals("stale", backup.findElement(By.cssSelector(".badge")).getText());
        assertEquals(List.of("backup:fileserver01"), all("#feeds tr.stale").stream()
                .map(r -> r.getDomAttribute("data-feed")).toList(), "only the stopped feed is stale at 24 hours");
        assertTrue(one("#feeds-summary").getText().contains("1 stale"), one("#feeds-summary").getText());

        // the threshold is the user's: at 200 hours the three-day-old backup is live again
        WebElement threshold = one("#stale-hours");
        threshold.clear();
        threshold.sendKeys("200");
        browser.await(d -> all("#feeds tr.stale").isEmpty());
        threshold.clear();
        threshold.sendKeys("24");
        browser.await(d -> all("#feeds tr.stale").size() == 1);
    }

    @Test
    @Order(2)
    void theHourlyTimelineShowsThePlantedGap() throws Exception {
        // given a search typed and sent with the keyboard
        one("body").sendKeys("/");
        WebElement what = browser.driver.switchTo().activeElement();
        assertEquals("q-what", what.getDomAttribute("id"), "/ focuses the search");
        what.sendKeys("sensor");
        one("#q-where").sendKeys("probe01");
        one("#q-start").sendKeys(Long.toString(first));
        one("#q-end").sendKeys(Long.toString(first + HOURS * HOUR - 1));
        one("#q-step").sendKeys("hour");
        one("#q-end").sendKeys(Keys.ENTER);

        // then
        browser.await(d -> all("#timeline .bin").size() == HOURS);
        List<Long> gapHours = new ArrayList<>();
        for (WebElement bin : all("#timeline .bin.gap")) {
            gapHours.add((Long.parseLong(bin.getDomAttribute("data-start")) - first) / HOUR);
        }
        assertEquals(List.of(100L, 101L, 102L, 103L, 104L, 105L), gapHours);
        List<WebElement> gaps = all("#gaps li");
        assertEquals(1, gaps.size());
        assertEquals(Long.toString(first + GAP_FROM * HOUR), gaps.get(0).getDomAttribute("data-start"));
        assertEquals(Long.toString(first + GAP_TO * HOUR), gaps.get(0).getDomAttribute("data-end"));
        assertTrue(one("#coverage-summary").getText().startsWith(HOURS + " hours, 1 gap"), one("#coverage-summary").getText());
        browser.await(d -> all("#files tbody tr").size() == 100);
        js("document.activeElement.blur()");
        browser.screenshot(Path.of("target", "explorer.png"));
    }

    @Test
    @Order(3)
    void pagingThroughTheFilesShowsEachOnce() {
        browser.await(d -> all("#files tbody tr").size() == 100);
        List<String> seen = new ArrayList<>(ids());

        one("body").sendKeys("n");
        browser.await(d -> one("#files-summary").getText().startsWith("page 2:"));
        seen.addAll(ids());
        boolean nextDisabled = one("#files-next").getDomProperty("disabled").equals("true");
        one("#files-prev").click();
        browser.await(d -> one("#files-summary").getText().startsWith("page 1:"));

        assertEquals(sensorIds.size(), seen.size());
        assertEquals(new HashSet<>(sensorIds), new HashSet<>(seen));
        assertTrue(nextDisabled, "the last page has no next");
        assertEquals(seen.subList(0, 100), ids(), "previous shows the first page again");
    }

    @Test
    @Order(4)
    void aDownloadLinkReturnsTheFile() throws Exception {
        WebElement row = browser.await(d -> all("#files tbody tr").get(0));
        String id = row.getDomAttribute("data-id");
        String href = row.findElement(By.cssSelector("a.download")).getDomProperty("href");

        HttpResponse<String> file = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build()
                .send(HttpRequest.newBuilder(URI.create(href)).build(), HttpResponse.BodyHandlers.ofString());

        assertEquals(runner.api + "/v0/archive/files/" + id + "/data", href);
        assertEquals(200, file.statusCode());
        int hour = sensorIds.indexOf(id);
        assertEquals("sensor probe01 hour " + (hour < GAP_FROM ? hour : hour + GAP_TO - GAP_FROM) + "\n", file.body());
        assertTrue(file.uri().toString().startsWith(runner.s3 + "/"), "served by S3 through the presigned link: " + file.uri());
    }

    @Test
    @Order(5)
    void aWorkIdSearchListsItsFilesWithoutATimeline() {
        for (String field : List.of("#q-what", "#q-where", "#q-start", "#q-end")) {
            one(field).clear();
        }
        one("#q-what").sendKeys("job-output");
        one("#q-work-id").sendKeys(DemoData.WORK_ID + Keys.ENTER);

        browser.await(d -> one("#files-summary").getText().equals("page 1: 2 files"));
        assertEquals(2, all("#files tbody tr").size());
        assertTrue(all("#files tbody tr").stream().allMatch(r -> r.getText().contains(DemoData.WORK_ID)));
        assertTrue(!one("#coverage-section").isDisplayed(), "a work_id has no time range to draw");
    }

    @Test
    @Order(6)
    void theTimelineIsOneTabStopReachedByTheSkipLinkAndWalkedWithTheArrowKeys() {
        // given the sensor's hourly timeline, opened from a link
        browser.driver.get(runner.api + "/#what=sensor&where=probe01&start=" + first + "&end="
                + (first + HOURS * HOUR - 1) + "&step=hour");
        browser.driver.navigate().refresh();
        browser.await(d -> all("#timeline .bin").size() == HOURS);

        // when the keyboard user tabs once and takes the skip link
        new Actions(browser.driver).sendKeys(Keys.TAB).perform();
        assertEquals("skip-timeline", active().getDomAttribute("id"), "the first tab stop skips to the timeline");
        active().sendKeys(Keys.ENTER);

        // then the first bar has the focus, and the arrow keys, Home and End move it
        assertEquals(Long.toString(first), active().getDomAttribute("data-start"));
        active().sendKeys(Keys.ARROW_RIGHT);
        assertEquals(Long.toString(first + HOUR), active().getDomAttribute("data-start"));
        active().sendKeys(Keys.END);
        assertEquals(Long.toString(first + (HOURS - 1) * HOUR), active().getDomAttribute("data-start"));
        active().sendKeys(Keys.HOME);
        active().sendKeys(Keys.ARROW_RIGHT);
        assertEquals(1, all("#timeline .bin[tabindex='0']").size(), "the timeline is one tab stop");
        // and Enter lists the bar's one file, in the singular
        active().sendKeys(Keys.ENTER);
        browser.await(d -> one("#files-summary").getText().equals("page 1: 1 file"));
        assertTrue(one("#timeline .bin:not(.gap)").getDomAttribute("title").contains(": 1 file, "),
                one("#timeline .bin:not(.gap)").getDomAttribute("title"));

        // and the axis is labelled at regular intervals, not only at its ends
        List<Long> ticks = all("#timeline-axis .tick").stream().map(t -> Long.parseLong(t.getDomAttribute("data-time")))
                .toList();
        assertTrue(ticks.size() >= 4, ticks.toString());
        for (int i = 1; i < ticks.size(); i++) {
            assertEquals(ticks.get(1) - ticks.get(0), ticks.get(i) - ticks.get(i - 1), "regular: " + ticks);
        }

        // and every time on the page has one format
        List<String> times = new ArrayList<>();
        all("#feeds tbody td:nth-child(3), #files tbody td:nth-child(3), #files tbody td:nth-child(4),"
                + " #timeline-axis .tick").forEach(e -> times.add(e.getText()));
        Pattern format = Pattern.compile("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d(\\.\\d{3})?Z");
        assertTrue(times.size() > 10, times.toString());
        assertEquals(List.of(), times.stream().filter(t -> !format.matcher(t).matches()).toList());
        assertTrue(format.matcher(one("#gaps li").getText().replaceAll("^no files from (.*) to .*$", "$1")).matches(),
                one("#gaps li").getText());
    }

    @Test
    @Order(7)
    void anUpperCaseWhatGetsOurMessageInPlaceOfThePreviousError() {
        WebElement what = one("#q-what");
        what.clear();
        one("#q-work-id").clear();
        what.sendKeys(Keys.ENTER);
        browser.await(d -> one("#status").getText().equals("Give a what (or pick a feed)."));

        what.sendKeys("SENSOR" + Keys.ENTER);

        browser.await(d -> one("#status").getText().startsWith("what holds only lower-case letters"));
        assertTrue(one("#status").getText().endsWith("did you mean \u201csensor\u201d?"), one("#status").getText());
        assertEquals("true", what.getDomAttribute("aria-invalid"));
    }

    @Test
    @Order(8)
    void aWorkIdSearchAfterOpeningAFeedSaysWhereItLookedAndOffersEveryWhere() {
        // given a feed opened (what and where filled), then another what and a work_id of another where
        one("#feeds tr[data-feed='syslog:webserver01'] .feed-link").click();
        browser.await(d -> one("#q-where").getDomProperty("value").equals("webserver01"));
        one("#q-what").clear();
        one("#q-what").sendKeys("job-output");
        one("#q-work-id").sendKeys(DemoData.WORK_ID + Keys.ENTER);

        // then the empty answer names the where it kept, with the way out
        browser.await(d -> one("#files-summary").getText().equals("no files of job-output from webserver01 with work_id "
                + DemoData.WORK_ID));
        WebElement everyWhere = one("#files-any-where");
        assertTrue(everyWhere.isDisplayed());

        everyWhere.click();
        browser.await(d -> one("#files-summary").getText().equals("page 1: 2 files"));
        assertEquals("", one("#q-where").getDomProperty("value"));
        assertTrue(!one("#files-any-where").isDisplayed());
    }

    @Test
    @Order(9)
    void aBarListsTheFilesItCountsOfTheSearchThatDrewItAndAGapEndsWithTheRange() {
        // given a day timeline whose first and last days reach beyond the range, then another what typed, not sent
        long start = first + 30 * HOUR + HOUR / 2;
        long end = first + 80 * HOUR + HOUR / 2;
        long days = Math.floorDiv(end, DAY) - Math.floorDiv(start, DAY) + 1;
        search("sensor", "probe01", Long.toString(start), Long.toString(end), "day");
        browser.await(d -> all("#timeline .bin").size() == days && listed("probe01"));
        one("#q-what").clear();
        one("#q-what").sendKeys("syslog");

        // when the first and the last bar are selected, then each lists the sensor files it counts
        for (WebElement bar : List.of(all("#timeline .bin").get(0), all("#timeline .bin").get((int) days - 1))) {
            int counted = Integer.parseInt(bar.getDomAttribute("data-files"));
            js("document.querySelector('#files tbody').replaceChildren()");
            bar.click();
            browser.await(d -> !all("#files tbody tr").isEmpty());
            assertEquals(counted, ids().size(), "the bar from " + bar.getDomAttribute("data-start") + " counts " + counted);
            assertTrue(sensorIds.containsAll(ids()), ids().toString());
        }

        // and a gap in the last bar ends where the range ends, not with the bar
        long gapEnd = first + (GAP_FROM + 2) * HOUR + HOUR / 2;
        search("sensor", "probe01", Long.toString(first + 95 * HOUR), Long.toString(gapEnd), "hour");
        browser.await(d -> all("#timeline .bin").size() == 8);
        assertEquals(List.of(Long.toString(first + GAP_FROM * HOUR) + "-" + gapEnd), all("#gaps li").stream()
                .map(g -> g.getDomAttribute("data-start") + "-" + g.getDomAttribute("data-end")).toList());
    }

    @Test
    @Order(10)
    void anAnswerToAnEarlierSearchThatComesLateDoesNotReplaceTheLaterSearchs() {
        // given the answers about the sensor held back until the test lets them go
        js("window.held = []; window.arrived = []; const fetchNow = window.fetch;"
                + " window.fetch = (url, options) => {"
                + "   if (!String(url).includes('what=sensor')) { return fetchNow(url, options); }"
                + "   const answer = new Promise((go) => window.held.push(go)).then(() => fetchNow(url, options))"
                + "     .then((r) => r.text().then((text) => new Response(text, { status: r.status, headers: r.headers })));"
                + "   window.arrived.push(answer);"
                + "   return answer;"
                + " };");
        search("sensor", "probe01", Long.toString(first), Long.toString(first + HOURS * HOUR - 1), "hour");
        search("syslog", "webserver01", "", "", "auto");
        browser.await(d -> one("#coverage-title").getText().equals("Coverage of syslog from webserver01")
                && listed("webserver01"));
        List<String> syslog = ids();
        assertEquals(2L, js("return window.held.length"), "the sensor's files and coverage are held");

        // when the sensor's answers arrive after them (and the page has had time to take them)
        ((JavascriptExecutor) browser.driver).executeAsyncScript("const done = arguments[arguments.length - 1];"
                + " window.held.forEach((go) => go()); Promise.all(window.arrived).then(() => setTimeout(done, 500));");

        // then the page still shows the later search
        assertEquals("Coverage of syslog from webserver01", one("#coverage-title").getText());
        assertEquals(syslog, ids());
        assertTrue(all("#timeline .bin").size() <= 8, "a week of syslog days, not the sensor's hours");
        browser.driver.navigate().refresh();
    }

    @Test
    @Order(11)
    void aFailedSearchLeavesNoResultsOfThePreviousSearchUnderIt() {
        // given the sensor's results
        search("sensor", "probe01", Long.toString(first), Long.toString(first + HOURS * HOUR - 1), "hour");
        browser.await(d -> all("#timeline .bin").size() == HOURS && listed("probe01"));

        // when a search fails: forty days are too many hours for the coverage, and its files do not come
        js("const fetchNow = window.fetch; window.fetch = (url, options) => String(url).startsWith('/v0/archive/files/')"
                + " ? Promise.reject(new TypeError('Failed to fetch')) : fetchNow(url, options);");
        search("sensor", "probe01", Long.toString(first - 40 * DAY), Long.toString(first), "hour");

        // then its error shows, and neither the sensor's timeline nor its files of before
        browser.await(d -> one("#status").getText().contains("RangeTooLong") || one("#status").getText().contains("answer"));
        browser.await(d -> !one("#coverage-section").isDisplayed() && !one("#files-section").isDisplayed());
        browser.driver.navigate().refresh();
    }

    @Test
    @Order(12)
    void a403SaysWhatTheApiSaidAndTheSigningHintOnlyWhenTheRequestWasNotSigned() {
        String notAllowed = "User: arn:aws:iam::123456789012:user/ana is not authorized to perform: execute-api:Invoke";
        String status = "";
        for (String message : List.of(notAllowed, "Forbidden")) {
            js("const body = JSON.stringify({ message: arguments[0] }); window.fetch = () => Promise.resolve("
                    + "new Response(body, { status: 403, headers: { 'Content-Type': 'application/json' } }));", message);
            search("sensor", "probe01", "", "", "auto");
            browser.await(d -> one("#status").getText().contains("403"));
            status += one("#status").getText() + "\n";
            js("document.getElementById('status').textContent = ''");
        }
        browser.driver.navigate().refresh();

        assertEquals(notAllowed + " (HTTP 403)\nThe API answered 403 Forbidden: it takes signed requests only. Open the page "
                + "through scripts/explore.sh, which signs them with your AWS credentials.\n", status);
    }

    @Test
    @Order(13)
    void aTimeTypedInSecondsIsReadAsTheApiReadsItAndALinkToItOpensTheSameSearch() {
        // given forty days up to the sensor's last file typed in seconds since 1970, as the API and the client read them
        long start = first - 34 * DAY;
        long end = first + HOURS * HOUR - 1000;
        long days = Math.floorDiv(end, DAY) - Math.floorDiv(start, DAY) + 1;
        search("sensor", "probe01", Long.toString(start / 1000), Long.toString(end / 1000), "auto");

        // then the timeline has a bar a day (forty days are too many hours for one request)
        browser.await(d -> all("#timeline .bin").size() == days || one("#status").getText().contains("RangeTooLong"));
        assertEquals("", one("#status").getText());
        assertEquals(days, all("#timeline .bin").size());

        // and the page opened again from its address shows the same search
        browser.driver.navigate().refresh();
        browser.await(d -> all("#timeline .bin").size() == days);
        assertEquals(Instant.ofEpochMilli(start).toString(), one("#q-start").getDomProperty("value"));
        assertEquals(Long.toString(Math.floorDiv(start, DAY) * DAY), one("#timeline .bin").getDomAttribute("data-start"));
    }

    @Test
    @Order(14)
    void aMalformedLinkGetsOurSentenceAndBackAndForwardShowTheirSearch() {
        // a link with times that are none: the page starts and names them
        browser.driver.get(runner.api + "/#what=sensor&where=probe01&start=x&end=1e20");
        browser.driver.navigate().refresh();
        browser.await(d -> one("#status").getText().startsWith("Give start and end as ISO-8601 times"));
        assertEquals("x", one("#q-start").getDomProperty("value"));

        // a link written otherwise than the page writes its hash (milliseconds): Back leaves it, not back into it,
        // and Forward returns to it
        browser.driver.get(runner.api + "/");
        browser.driver.get(runner.api + "/#what=sensor&where=probe01&start=" + first + "&end=" + (first + HOURS * HOUR - 1)
                + "&step=hour");
        browser.await(d -> all("#timeline .bin").size() == HOURS);
        browser.driver.navigate().back();
        browser.await(d -> !one("#coverage-section").isDisplayed() && one("#q-what").getDomProperty("value").isEmpty());
        browser.driver.navigate().forward();
        browser.await(d -> one("#coverage-section").isDisplayed() && all("#timeline .bin").size() == HOURS);

        // two searches, then Back and Forward
        search("sensor", "probe01", Long.toString(first), Long.toString(first + HOURS * HOUR - 1), "hour");
        browser.await(d -> all("#timeline .bin").size() == HOURS);
        search("syslog", "webserver01", "", "", "auto");
        browser.await(d -> one("#coverage-title").getText().equals("Coverage of syslog from webserver01"));

        browser.driver.navigate().back();
        browser.await(d -> one("#coverage-title").getText().equals("Coverage of sensor from probe01")
                && all("#timeline .bin").size() == HOURS);
        assertEquals("sensor", one("#q-what").getDomProperty("value"));
        browser.driver.navigate().forward();
        browser.await(d -> one("#coverage-title").getText().equals("Coverage of syslog from webserver01"));
        assertEquals("syslog", one("#q-what").getDomProperty("value"));

        // a malformed link opened over a shown search: its sentence, and no results of the search before it
        ((JavascriptExecutor) browser.driver).executeScript("location.hash = 'what=sensor&where=probe01&start=x'");
        browser.await(d -> one("#status").getText().startsWith("Give start and end as ISO-8601 times")
                && !one("#coverage-section").isDisplayed() && !one("#files-section").isDisplayed());
    }

    @Test
    @Order(15)
    void withCookiesAndSiteDataBlockedThePageStillWorks() throws Exception {
        try (BrowserHarness blocked = BrowserHarness.withSiteDataBlocked()) {
            blocked.driver.get(runner.api + "/#what=sensor&where=probe01&start=" + first + "&end="
                    + (first + HOURS * HOUR - 1) + "&step=hour");
            assertEquals("SecurityError", ((JavascriptExecutor) blocked.driver).executeScript(
                    "try { return typeof window.localStorage; } catch (e) { return e.name; }"), "the browser blocks it");

            blocked.await(d -> d.findElements(By.cssSelector("#timeline .bin")).size() == HOURS
                    && d.findElements(By.cssSelector("#feeds tbody tr")).size() >= 7);
            WebElement threshold = blocked.driver.findElement(By.cssSelector("#stale-hours"));
            threshold.clear();
            threshold.sendKeys("200");
            blocked.await(d -> d.findElements(By.cssSelector("#feeds tr.stale")).isEmpty());
        }
    }

    /** Types a search into the form (empty fields stay empty) and sends it with Enter. */
    private void search(String what, String where, String start, String end, String step) {
        for (String field : List.of("#q-what", "#q-where", "#q-start", "#q-end", "#q-work-id")) {
            one(field).clear();
        }
        one("#q-where").sendKeys(where);
        one("#q-start").sendKeys(start);
        one("#q-end").sendKeys(end);
        new Select(one("#q-step")).selectByValue(step);
        one("#q-what").sendKeys(what + Keys.ENTER);
    }

    /** Whether files are listed, all from {@code where}. */
    private boolean listed(String where) {
        List<WebElement> rows = all("#files tbody tr td:nth-child(2)");
        return !rows.isEmpty() && rows.stream().allMatch(cell -> cell.getText().equals(where));
    }

    private Object js(String script, Object... arguments) {
        return ((JavascriptExecutor) browser.driver).executeScript(script, arguments);
    }

    private WebElement active() {
        return browser.driver.switchTo().activeElement();
    }

    private List<String> ids() {
        return all("#files tbody tr").stream().map(r -> r.getDomAttribute("data-id")).toList();
    }
}
