package com.kvportal.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.Inbox;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/** Teams in a real browser: an owner invites, the invitee signs up from the mailed link and sees what a viewer may. */
class TeamsDashboardIT extends BrowserIntegration {

    @Test
    void shouldInviteAViewerWhoSignsUpFromTheMailAndIsOfferedNoKeyCreation() {
        String owner = signUpInPage();
        String organization = owner + "'s organization";
        assertThat(browser.byId("role-badge").getText()).isEqualTo("owner");
        assertThat(browser.byId("create-card").isDisplayed()).isTrue();

        browser.open(baseUrl() + "/dashboard/members");
        browser.visible("content");
        checkLayout("members");
        browser.byId("invite").click();
        browser.visible("invite-dialog");
        String invitee = "invitee-" + UUID.randomUUID() + "@example.com";
        browser.type("invite-email", invitee);
        new Select(browser.byId("invite-role")).selectByValue("viewer");
        browser.byId("invite-send").click();
        browser.waitUntil(ExpectedConditions.textToBePresentInElementLocated(By.id("invitations-body"), invitee));
        assertThat(browser.byId("owner-card").isDisplayed()).isTrue();
        logOut();

        clickMailedLink(invitee, "You are invited to join an organization on kv-portal");
        browser.waitUntil(ExpectedConditions.urlContains("/accept-invitation?token="));
        browser.visible("invitation-signup-form");
        checkLayout("accept-invitation");
        browser.type("signup-email", invitee);
        browser.type("signup-password", PASSWORD);
        browser.byId("signup-join").click();
        awaitKeysPage();

        assertThat(new Select(browser.byId("organization-select"))
                        .getFirstSelectedOption()
                        .getText())
                .isEqualTo(organization);
        // the role, once: beside the switcher
        assertThat(browser.byId("role-badge").getText()).isEqualTo("viewer");
        assertThat(browser.driver().findElement(By.className("topbar")).getText())
                .containsOnlyOnce("viewer");
        assertThat(browser.byId("create-card").isDisplayed())
                .as("a viewer sees no Create key")
                .isFalse();
        assertThat(browser.byId("new-project").isDisplayed()).isFalse();
        checkLayout("keys-as-viewer");

        browser.open(baseUrl() + "/dashboard/members");
        browser.visible("content");
        browser.waitUntil(ExpectedConditions.textToBePresentInElementLocated(By.id("members-body"), owner));
        assertThat(browser.byId("invite").isDisplayed()).isFalse();
        assertThat(browser.all("#members-body [data-action]")).isEmpty();
        assertThat(browser.byId("owner-card").isDisplayed()).isFalse();
        assertThat(browser.byId("leave").isDisplayed()).isTrue();
        assertThat(browser.scriptErrors()).isEmpty();

        Api asInvitee = new Api(baseUrl());
        asInvitee.post("/api/v1/auth/login", java.util.Map.of("email", invitee, "password", PASSWORD));
        assertThat(asInvitee.get("/api/v1/session").json().get("email_verified").asBoolean())
                .isTrue();
    }

    @Test
    void shouldOfferADeveloperNoAdminKeysButTheRevocationOfOne() {
        String owner = signUpInPage();
        createKeyInPage("owner's automation", "admin");
        Api asOwner = new Api(baseUrl());
        asOwner.post("/api/v1/auth/login", Map.of("email", owner, "password", PASSWORD));
        String developer = "developer-" + UUID.randomUUID() + "@example.com";
        assertThat(asOwner.post("/api/v1/invitations", Map.of("email", developer, "role", "developer"))
                        .status())
                .isEqualTo(201);
        String token = Inbox.token(new Inbox(baseUrl(), developer).awaitMessage("You are invited"));
        assertThat(new Api(baseUrl())
                        .post(
                                "/api/v1/auth/signup",
                                Map.of("email", developer, "password", PASSWORD, "invitation_token", token))
                        .status())
                .isEqualTo(201);
        logOut();

        logInInPage(developer, PASSWORD);
        awaitKeysPage();

        assertThat(rowNamed("owner's automation").findElements(By.cssSelector("[data-action]")))
                .extracting(button -> button.getDomAttribute("data-action"))
                .containsExactly("chart", "revoke"); // the chart is for every member
        assertThat(browser.byId("perm-admin").isEnabled()).isFalse();
        assertThat(browser.byId("admin-help").getText()).contains("Only owners and admins may give a key admin");
        createKeyInPage("developer's", "read", "write");
        assertThat(rowNamed("developer's").findElements(By.cssSelector("[data-action]")))
                .extracting(button -> button.getDomAttribute("data-action"))
                .containsExactly("chart", "edit", "roll", "revoke");
        checkLayout("keys-as-developer");
        assertThat(browser.scriptErrors()).isEmpty();
    }

    @Test
    void shouldDeleteAnOrganizationOnlyOnceItsNameIsTyped() {
        String owner = signUpInPage();
        String organization = owner + "'s organization";
        browser.open(baseUrl() + "/dashboard/members");
        browser.visible("content");

        browser.byId("delete-organization").click();
        browser.visible("delete-dialog");
        browser.type("delete-confirm-name", "not its name");
        assertThat(browser.byId("delete-submit").isEnabled()).isFalse();
        browser.type("delete-confirm-name", organization);
        browser.type("delete-password", PASSWORD);
        assertThat(browser.byId("delete-submit").isEnabled()).isTrue();
        browser.byId("delete-submit").click();

        browser.waitUntil(ExpectedConditions.urlContains("/dashboard/account"));
        Api api = new Api(baseUrl());
        api.post("/api/v1/auth/login", java.util.Map.of("email", owner, "password", PASSWORD));
        assertThat(api.get("/api/v1/session").json().get("organizations")).isEmpty();
    }
}
