package datalake.local;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium driven by its chromedriver through Selenium: the browser a person would
 * use, on this machine, without downloads (Selenium Manager is never asked: the driver is given).
 *
 * <p>Chromium missing is a failure, not a skip: scripts/test.sh installs it (Debian's chromium and
 * chromium-driver), and CI runs that. Only {@code DATALAKE_SKIP_BROWSER=1}, which scripts/test.sh sets
 * outside CI when it could not install Chromium (no root), skips the browser tests, with that reason.
 */
final class BrowserHarness implements AutoCloseable {
    final WebDriver driver;
    private final ChromeDriverService service;
    private final Path profile;

    private BrowserHarness(ChromeDriverService service, WebDriver driver, Path profile) {
        this.service = service;
        this.driver = driver;
        this.profile = profile;
    }

    static BrowserHarness start() throws IOException {
        return start(new ChromeOptions());
    }

    /** A browser whose user blocks cookies and site data: reading the page's localStorage throws. */
    static BrowserHarness withSiteDataBlocked() throws IOException {
        ChromeOptions options = new ChromeOptions();
        options.setExperimentalOption("prefs", Map.of("profile.default_content_setting_values.cookies", 2));
        return start(options);
    }

    private static BrowserHarness start(ChromeOptions options) throws IOException {
        Assumptions.assumeFalse("1".equals(System.getenv("DATALAKE_SKIP_BROWSER")),
                "DATALAKE_SKIP_BROWSER=1: scripts/test.sh could not install Chromium on this machine");
        File chromium = executable("DATALAKE_CHROMIUM", "/usr/bin/chromium");
        File chromedriver = executable("DATALAKE_CHROMEDRIVER", "/usr/bin/chromedriver");
        Path profile = Files.createTempDirectory("datalake-chromium");
        options.setBinary(chromium);
        // This machine's network is closed: without the background-networking flags Chromium's own
        // connections are refused and slow it down; a fresh profile keeps runs independent.
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1400,1000", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(chromedriver)
                .usingAnyFreePort().build();
        return new BrowserHarness(service, new ChromeDriver(service, options), profile);
    }

    private static File executable(String variable, String fallback) {
        String configured = System.getenv(variable);
        File file = new File(configured == null || configured.isBlank() ? fallback : configured);
        if (!file.canExecute()) {
            throw new IllegalStateException(file + " is missing: the explorer's browser test needs Debian's chromium and "
                    + "chromium-driver (scripts/test.sh installs them as root: apt-get install chromium chromium-driver), "
                    + "or " + variable + " pointing at one.");
        }
        return file;
    }

    /** Waits for the condition, evaluated again when the page replaced an element it was reading. */
    <T> T await(Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, Duration.ofSeconds(20)).ignoring(StaleElementReferenceException.class)
                .until(condition::apply);
    }

    void screenshot(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
    }

    @Override
    public void close() throws IOException {
        try {
            driver.quit();
        } finally {
            service.stop();
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
