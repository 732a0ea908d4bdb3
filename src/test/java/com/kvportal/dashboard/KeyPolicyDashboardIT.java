package com.kvportal.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.Browser;
import com.kvportal.support.Inbox;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.Select;

/**
 * The organization's key policy on the members page in a real browser: owners and admins save it, the keys page then
 * shows its refusals in its words, and any other member sees it read-only; at 1440 and 375 px.
 */
class KeyPolicyDashboardIT extends BrowserIntegration {

    private void openMembers() {
        browser.open(baseUrl() + "/dashboard/members");
        browser.visible("content");
        browser.waitUntil(driver -> !browser.byId("key-policy-state").getText().isEmpty());
    }

    /** The create form's own alert, once it shows. */
    private static String formError() {
        return browser.waitUntil(driver -> {
            String text = driver.findElement(By.cssSelector("#create-key-form [data-form-error]"))
                    .getText();
            return text.isEmpty() ? null : text;
        });
    }

    private void openKeys() {
        browser.open(baseUrl() + "/dashboard");
        awaitKeysPage();
    }

    @Test
    void shouldSaveThePolicyOnTheMembersPageAndShowItsRefusalWhenAKeyLivesTooLong() {
        String owner = signUpInPage();
        openMembers();
        assertThat(browser.byId("key-policy-state").getText())
                .isEqualTo("Keys may live up to 365 days. Keys may be used from any address unless they name their own."
                        + " A change applies to keys created or changed after it.");
        assertThat(browser.byId("key-policy-readonly").isDisplayed()).isFalse();

        browser.type("key-policy-lifetime", "400");
        browser.byId("key-policy-save").click();
        assertThat(browser.visible("key-policy-lifetime-error").getText())
                .isEqualTo("Enter a whole number of days from 1 to 365, or leave it empty for no maximum.");
        saveRefused(
                "key-policy-lifetime",
                "thirty",
                "key-policy-save",
                "Enter a whole number of days from 1 to 365, or leave it empty for no maximum.");
        Api api = new Api(baseUrl());
        api.post("/api/v1/auth/login", Map.of("email", owner, "password", PASSWORD));
        assertThat(api.get("/api/v1/key-policy").json().toString())
                .as("a refused policy changed nothing")
                .isEqualTo("{\"max_lifetime_days\":null,\"require_allowed_ips\":false}");

        browser.type("key-policy-lifetime", "30");
        browser.byId("key-policy-save").click();
        assertThat(browser.visible("key-policy-saved").getText())
                .isEqualTo("Key policy saved. New keys and changed keys follow it from now on.");
        assertThat(browser.byId("key-policy-state").getText()).startsWith("Keys may live at most 30 days.");
        assertThat(api.get("/api/v1/key-policy").json().toString())
                .isEqualTo("{\"max_lifetime_days\":30,\"require_allowed_ips\":false}");
        checkLayout("members-key-policy");

        openKeys();
        submitKey("too long"); // the form's default: 90 days
        assertThat(formError()).contains("The organization's key policy allows keys of at most 30 days");
        assertThat(browser.all("#keys-body tr")).isEmpty();
        assertThat(api.keys()).isEmpty();
        browser.setWidth(Browser.PHONE_WIDTH);
        assertThat(browser.horizontalOverflow()).isZero();
        browser.screenshot("keys-policy-refused-375");
        browser.setWidth(Browser.DESKTOP_WIDTH);

        new Select(browser.byId("key-expiry")).selectByValue("7");
        browser.byId("create-key").click();
        browser.visible("new-key");
        rowNamed("too long");
    }

    @Test
    void shouldRequireAddressesOnceThePolicySaysSoAndTakeThemInTheCreateForm() {
        signUpInPage();
        openMembers();
        browser.byId("key-policy-require-ips").click();
        browser.byId("key-policy-save").click();
        browser.visible("key-policy-saved");
        assertThat(browser.byId("key-policy-state").getText())
                .contains("Every key must name the addresses it is used from.");

        openKeys();
        submitKey("anywhere");
        assertThat(formError()).contains("requires allowed addresses on every key");
        assertThat(browser.all("#keys-body tr")).isEmpty();

        browser.type("key-allowed-ips", "198.51.100.7");
        String raw = createKeyInPage("anywhere");
        Api.Response verified =
                Api.withKey(baseUrl(), raw).post("/api/v1/api-keys/verify", Map.of("client_ip", "198.51.100.7"));
        assertThat(verified.status()).as(verified.toString()).isEqualTo(200);
        assertThat(verified.json().get("allowed_ips").toString()).isEqualTo("[\"198.51.100.7\"]");
    }

    @Test
    void shouldShowThePolicyReadOnlyToAMemberWhoMayNotChangeIt() {
        Api owner = new Api(baseUrl());
        owner.signup();
        assertThat(owner.put("/api/v1/key-policy", Map.of("max_lifetime_days", 30))
                        .status())
                .isEqualTo(200);
        String developer = "developer-" + UUID.randomUUID() + "@example.com";
        assertThat(owner.post("/api/v1/invitations", Map.of("email", developer, "role", "developer"))
                        .status())
                .isEqualTo(201);
        String token = Inbox.token(new Inbox(baseUrl(), developer).awaitMessage("You are invited"));
        Api asDeveloper = new Api(baseUrl());
        assertThat(asDeveloper
                        .post(
                                "/api/v1/auth/signup",
                                Map.of("email", developer, "password", PASSWORD, "invitation_token", token))
                        .status())
                .isEqualTo(201);

        browser.open(baseUrl() + "/login");
        logInInPage(developer, PASSWORD);
        awaitKeysPage();
        openMembers();

        assertThat(browser.byId("key-policy-state").getText())
                .isEqualTo("Keys may live at most 30 days. Keys may be used from any address unless they name their"
                        + " own. A change applies to keys created or changed after it.");
        assertThat(browser.byId("key-policy-lifetime").getDomProperty("value")).isEqualTo("30");
        assertThat(browser.byId("key-policy-lifetime").isEnabled()).isFalse();
        assertThat(browser.byId("key-policy-require-ips").isEnabled()).isFalse();
        assertThat(browser.byId("key-policy-save").isDisplayed()).isFalse();
        assertThat(browser.byId("key-policy-readonly").getText())
                .isEqualTo("Only owners and admins change the key policy.");
        checkLayout("members-key-policy-read-only");
        assertThat(browser.scriptErrors()).isEmpty();

        // what the page does not offer, the API refuses
        Api.Response refused = asDeveloper.put("/api/v1/key-policy", Map.of("max_lifetime_days", 365));
        assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
        assertThat(owner.get("/api/v1/key-policy")
                        .json()
                        .get("max_lifetime_days")
                        .asInt())
                .isEqualTo(30);
    }
}
