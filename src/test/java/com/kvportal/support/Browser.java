package com.kvportal.support;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Level;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.util.FileSystemUtils;

/**
 * A real headless Chromium driven by Debian's chromedriver. Selenium Manager never runs: the driver and the
 * browser are given by path. Without them the browser tests are skipped ({@link BrowserCondition}), unless
 * {@code KVPORTAL_REQUIRE_BROWSER=true} (CI), where their absence is a failure.
 */
public final class Browser implements AutoCloseable {

    public static final int DESKTOP_WIDTH = 1440;
    public static final int PHONE_WIDTH = 375;

    private static final File CHROMIUM = new File("/usr/bin/chromium");
    private static final File CHROMEDRIVER = new File("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private final ChromeDriver driver;
    private final Path profile;

    private Browser(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    /**
     * Why the browser tests cannot run here: empty when Chromium and its driver are installed, or when CI requires
     * them ({@code KVPORTAL_REQUIRE_BROWSER=true}), where {@link #start()} then fails instead of skipping.
     */
    public static Optional<String> skipReason() {
        if (installed() || "true".equalsIgnoreCase(System.getenv("KVPORTAL_REQUIRE_BROWSER"))) {
            return Optional.empty();
        }
        return Optional.of(missingMessage());
    }

    private static boolean installed() {
        return CHROMIUM.canExecute() && CHROMEDRIVER.canExecute();
    }

    private static String missingMessage() {
        return "no " + CHROMIUM + " or " + CHROMEDRIVER + " (apt-get install chromium chromium-driver)";
    }

    /** Starts a browser with a fresh profile; fails when none is installed (see {@link BrowserCondition}). */
    public static Browser start() {
        if (!installed()) {
            throw new IllegalStateException("Browser tests need a browser: " + missingMessage()
                    + "; KVPORTAL_REQUIRE_BROWSER=true (CI) forbids skipping them");
        }
        Path profile;
        try {
            profile = Files.createTempDirectory("kv-portal-chromium");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER)
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=" + DESKTOP_WIDTH + ",900",
                "--user-data-dir=" + profile.toAbsolutePath());
        options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
        return new Browser(new ChromeDriver(service, options), profile);
    }

    public ChromeDriver driver() {
        return driver;
    }

    public void open(String url) {
        driver.get(url);
    }

    public String currentUrl() {
        return driver.getCurrentUrl();
    }

    public <T> T waitUntil(Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, TIMEOUT).until(condition::apply);
    }

    public <T> T waitUntil(Duration timeout, Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, timeout).until(condition::apply);
    }

    public WebElement visible(String id) {
        return waitUntil(ExpectedConditions.visibilityOfElementLocated(By.id(id)));
    }

    public void waitForHidden(String id) {
        waitUntil(ExpectedConditions.invisibilityOfElementLocated(By.id(id)));
    }

    public WebElement byId(String id) {
        return driver.findElement(By.id(id));
    }

    public List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    public void type(String id, String text) {
        WebElement input = visible(id);
        input.clear();
        input.sendKeys(text);
    }

    public Object script(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    /** Resizes the viewport and lets two frames pass, so resize observers (Chart.js) have laid the page out again. */
    public void setWidth(int width) {
        driver.manage().window().setSize(new Dimension(width, 900));
        waitUntil(ignored -> viewportWidth() == width ? Boolean.TRUE : null);
        ((JavascriptExecutor) driver)
                .executeAsyncScript("const done = arguments[arguments.length - 1];"
                        + " requestAnimationFrame(() => requestAnimationFrame(done));");
    }

    public int viewportWidth() {
        return ((Number) script("return window.innerWidth;")).intValue();
    }

    /** How far the page sticks out to the right of the viewport, in CSS pixels (0 when it fits). */
    public long horizontalOverflow() {
        return ((Number) script("return Math.max(0, document.documentElement.scrollWidth"
                        + " - document.documentElement.clientWidth);"))
                .longValue();
    }

    /** The elements whose right edge lies past the viewport, outermost first: what a failed layout check names. */
    public String overflowingElements() {
        return String.valueOf(
                script(
                        """
                const out = [];
                for (const e of document.body.querySelectorAll('*')) {
                  const r = e.getBoundingClientRect();
                  if (r.right > document.documentElement.clientWidth + 0.5 && out.length < 5) {
                    out.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
                        + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : '')
                        + ' ' + Math.round(r.width) + 'px');
                  }
                }
                return out.join(', ');
                """));
    }

    /** Visible form controls without an accessible name (a label, aria-label or aria-labelledby, or a text). */
    @SuppressWarnings("unchecked")
    public List<String> unlabeledControls() {
        return (List<String>)
                script(
                        """
                const nameless = [];
                for (const c of document.querySelectorAll('input, select, textarea, button')) {
                  if (c.type === 'hidden' || !c.getClientRects().length) continue;
                  const named = (c.labels && c.labels.length > 0) || c.getAttribute('aria-label')
                    || c.getAttribute('aria-labelledby') || (c.tagName === 'BUTTON' && c.textContent.trim());
                  if (!named) nameless.push(c.outerHTML.slice(0, 120));
                }
                return nameless;""");
    }

    /**
     * Errors the page's scripts raised since the last call (uncaught exceptions, CSP refusals), without the
     * console lines Chromium writes for every HTTP error answer, which the pages handle.
     */
    public List<String> scriptErrors() {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(entry -> entry.getLevel().intValue() >= Level.SEVERE.intValue())
                .map(LogEntry::getMessage)
                .filter(message -> !message.contains("Failed to load resource"))
                .toList();
    }

    /** Saves the whole page (not only the viewport) at the current width as target/screenshots/{name}.png. */
    public Path screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            // the capture grows the viewport to the page's height, so the scrollbar goes and the page is innerWidth
            // wide
            Number width = (Number) script("return window.innerWidth;");
            Number height = (Number) script("return Math.max(document.documentElement.scrollHeight, innerHeight);");
            Map<String, Object> shot = driver.executeCdpCommand(
                    "Page.captureScreenshot",
                    Map.of(
                            "format",
                            "png",
                            "captureBeyondViewport",
                            true,
                            "clip",
                            Map.of("x", 0, "y", 0, "width", width, "height", height, "scale", 1)));
            Path file = SCREENSHOTS.resolve(name + ".png");
            Files.write(file, OutputType.BYTES.convertFromBase64Png((String) shot.get("data")));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            FileSystemUtils.deleteRecursively(profile.toFile());
        }
    }
}
