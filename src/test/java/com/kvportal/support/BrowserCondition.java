package com.kvportal.support;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Skips each browser test when no browser is installed outside CI ({@link Browser#skipReason()}): one by one, so
 * that the summary counts them ("Tests run: 22, Skipped: 22"), and {@link SkippedBrowserTests} names them at the
 * end of the build. In CI the tests run and fail without a browser.
 */
public final class BrowserCondition implements ExecutionCondition {

    /** How a skipped browser test's reason starts: what {@link SkippedBrowserTests} counts. */
    static final String SKIPPED = "browser test skipped: ";

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (context.getTestMethod().isEmpty()) {
            return ConditionEvaluationResult.enabled("each test of the class is decided on its own");
        }
        return Browser.skipReason()
                .map(reason -> ConditionEvaluationResult.disabled(SKIPPED + reason))
                .orElseGet(() -> ConditionEvaluationResult.enabled("a browser is installed, or CI requires one"));
    }
}
