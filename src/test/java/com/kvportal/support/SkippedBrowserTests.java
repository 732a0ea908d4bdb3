package com.kvportal.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Counts the browser tests {@link BrowserCondition} skipped and writes the warning to
 * {@code target/browser-tests-skipped.txt}, which the build prints in its last lines (the pom's
 * {@code browser-tests-skipped} execution), so a missing browser is never only in the failsafe reports.
 * Registered through {@code META-INF/services}.
 */
public final class SkippedBrowserTests implements TestExecutionListener {

    static final Path WARNING = Path.of("target", "browser-tests-skipped.txt");

    private final AtomicInteger skipped = new AtomicInteger();
    private final AtomicReference<String> reason = new AtomicReference<>();

    @Override
    public void executionSkipped(TestIdentifier test, String why) {
        if (test.isTest() && why.startsWith(BrowserCondition.SKIPPED)) {
            skipped.incrementAndGet();
            reason.set(why.substring(BrowserCondition.SKIPPED.length()));
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan plan) {
        if (skipped.get() == 0) {
            return;
        }
        String warning = "%d browser tests were SKIPPED: %s. In CI (KVPORTAL_REQUIRE_BROWSER=true) they fail instead.%n"
                .formatted(skipped.get(), reason.get());
        try {
            Files.createDirectories(WARNING.getParent());
            Files.writeString(WARNING, warning);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
