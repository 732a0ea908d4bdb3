package com.kvportal.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Browser;
import com.kvportal.support.BrowserCondition;
import com.kvportal.support.IntegrationTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/** A person reads the document in Swagger UI: the operations by feature, their summaries and their answers. */
@ExtendWith(BrowserCondition.class)
class SwaggerUiIT extends IntegrationTest {

    @Test
    void shouldShowTheDocumentInSwaggerUiReadablyByAPerson() throws Exception {
        try (Browser browser = Browser.start()) {
            browser.setWidth(Browser.DESKTOP_WIDTH);
            browser.open(baseUrl() + "/swagger-ui.html");
            browser.waitUntil(
                    Duration.ofSeconds(60), ExpectedConditions.presenceOfElementLocated(By.cssSelector(".opblock")));
            assertThat(browser.driver()
                            .findElement(By.cssSelector(".info .title"))
                            .getText())
                    .contains("kv-portal");
            assertThat(browser.all(".opblock-tag").stream().map(WebElement::getText))
                    .anyMatch(tag -> tag.contains("API keys"))
                    .anyMatch(tag -> tag.contains("Billing"));
            assertThat(browser.all(".opblock-summary-description").stream().map(WebElement::getText))
                    .contains("Create an API key", "Verify an API key", "Revoke an API key");
            // open create: its responses, with the problem examples
            browser.all(".opblock-summary-description").stream()
                    .filter(e -> e.getText().equals("Create an API key"))
                    .findFirst()
                    .orElseThrow()
                    .click();
            browser.waitUntil(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".responses-table")));
            assertThat(browser.driver()
                            .findElement(By.cssSelector(".opblock.is-open"))
                            .getText())
                    .contains("201", "409", "key_limit_reached");
            assertThat(browser.scriptErrors()).isEmpty();
            Path shot = browser.screenshot("swagger-ui");
            assertThat(Files.size(shot)).isGreaterThan(10_000);
        }
    }
}
