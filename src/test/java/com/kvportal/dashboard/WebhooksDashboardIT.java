package com.kvportal.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Browser;
import com.kvportal.support.WebhookReceiver;
import com.kvportal.support.WebhookReceiver.Received;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;

/**
 * The Webhooks page in a real browser: add an endpoint (its secret shown once), send a test event that a receiver
 * verifies with that secret, read the delivery log, retry a delivery.
 */
@WebhookReceiver.Reachable
class WebhooksDashboardIT extends BrowserIntegration {

    @Test
    void shouldAddAnEndpointShowItsSecretOnceAndLogItsDeliveries() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            signUpInPage();
            browser.open(baseUrl() + "/dashboard/webhooks");
            assertThat(browser.visible("endpoints-empty").getText()).contains("No endpoints yet");
            // the URL field holds an address of 30 characters and more, and looks like the other fields
            assertThat(
                            (Number)
                                    browser.script(
                                            """
                            const input = document.getElementById('endpoint-url');
                            const context = document.createElement('canvas').getContext('2d');
                            context.font = getComputedStyle(input).font;
                            return input.clientWidth - context.measureText('https://example.com/hooks/kv-p').width;"""))
                    .satisfies(room -> assertThat(room.doubleValue()).isPositive());
            assertThat(style("endpoint-url")).isEqualTo(style("endpoint-description"));

            browser.type("endpoint-url", receiver.url());
            browser.type("endpoint-description", "<b>orders</b>");
            browser.byId("create-endpoint").click();

            String secret = browser.visible("new-secret-value").getDomProperty("value");
            assertThat(secret).startsWith("whsec_");
            WebElement row = browser.waitUntil(d -> d.findElement(By.cssSelector("#endpoints-body tr")));
            assertThat(row.getText()).contains(receiver.url(), "<b>orders</b>", "All", "Enabled");
            assertThat(wordsBrokenInTwo()).isEmpty();
            checkLayout("webhooks-new-endpoint");
            browser.byId("dismiss-secret").click();
            browser.driver().navigate().refresh();
            browser.waitUntil(d -> d.findElement(By.cssSelector("#endpoints-body tr")));
            assertThat(browser.driver().getPageSource()).doesNotContain(secret);

            action("test").click();
            browser.waitUntil(Duration.ofSeconds(20), d -> !receiver.received().isEmpty());
            Received delivery = receiver.received().get(0);
            delivery.verify(secret);
            assertThat(delivery.json().get("type").asString()).isEqualTo("webhook.test");

            // the receiver has the body before the attempt's outcome is recorded: wait for both
            assertThat(awaitDelivery("1 attempt", "delivered")).contains("webhook.test", "204", "ms");
            checkLayout("webhooks-deliveries");

            browser.waitUntil(d -> {
                try {
                    d.findElement(By.cssSelector("#deliveries-body [data-action=retry]"))
                            .click();
                    return true;
                } catch (StaleElementReferenceException rendered) {
                    return null;
                }
            });
            browser.waitUntil(Duration.ofSeconds(20), d -> receiver.received().size() == 2);
            awaitDelivery("2 attempts", "delivered");
            assertThat(receiver.received().get(1).id()).isEqualTo(delivery.id());

            // a failed attempt says why
            receiver.answer(WebhookReceiver.Mode.FAIL);
            action("test").click();
            assertThat(awaitDelivery("1 attempt", "pending", "500"))
                    .contains("500: the endpoint refused the event; it must answer 2xx.");
            receiver.answer(WebhookReceiver.Mode.CLOSE);
            action("test").click();
            // the attempt is counted when it is claimed, its reason recorded when it ends: wait for the reason's words
            assertThat(awaitDelivery("1 attempt", "pending", "closed the connection without answering"))
                    .contains("No answer: the endpoint closed the connection without answering.");
            receiver.answer(WebhookReceiver.Mode.HANG);
            action("test").click();
            // the newest row is the closed connection's until the new delivery is listed: wait for its words
            assertThat(awaitDelivery(
                            "1 attempt",
                            "pending",
                            "No answer: the endpoint took longer than the time allowed to answer."))
                    .doesNotContain("closed the connection");
            for (int width : new int[] {Browser.DESKTOP_WIDTH, Browser.PHONE_WIDTH}) {
                browser.setWidth(width);
                assertThat(wordsBrokenInTwo()).as("at %d px", width).isEmpty();
            }
            checkLayout("webhooks-failed-delivery");
        }
    }

    /** What makes a field look as it does. */
    private String style(String id) {
        return (String) browser.script(
                """
                const style = getComputedStyle(document.getElementById(arguments[0]));
                return [style.borderRadius, style.borderColor, style.padding, style.minHeight, style.fontSize].join(' ');""",
                id);
    }

    /** The single words of the tables (states, buttons) that wrap onto a second line: none may. */
    @SuppressWarnings("unchecked")
    private List<String> wordsBrokenInTwo() {
        return (List<String>)
                browser.script(
                        """
                const broken = [];
                for (const node of document.querySelectorAll('#endpoints-body td.state, #endpoints-body button,'
                    + ' #deliveries-body button, #deliveries-body .event-type')) {
                  for (const text of node.childNodes) {
                    if (text.nodeType !== Node.TEXT_NODE || !text.textContent.trim()) continue;
                    for (const word of text.textContent.trim().split(/\\s+/)) {
                      const range = document.createRange();
                      const start = text.textContent.indexOf(word);
                      range.setStart(text, start);
                      range.setEnd(text, start + word.length);
                      if (range.getClientRects().length > 1) broken.push(word);
                    }
                  }
                }
                return broken;""");
    }

    private WebElement action(String name) {
        return browser.byId("endpoints-body").findElement(By.cssSelector("[data-action=" + name + "]"));
    }

    /** The newest delivery's row text once it contains every one of {@code texts}, refreshing the log meanwhile. */
    private String awaitDelivery(String... texts) {
        return browser.waitUntil(Duration.ofSeconds(20), d -> {
            try {
                browser.byId("refresh-deliveries").click();
                List<WebElement> rows = d.findElements(By.cssSelector("#deliveries-body tr"));
                String row = rows.isEmpty() ? "" : rows.get(0).getText();
                return Arrays.stream(texts).allMatch(row::contains) ? row : null;
            } catch (StaleElementReferenceException rendered) {
                return null;
            }
        });
    }
}
