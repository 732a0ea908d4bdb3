package com.kvportal.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import org.junit.jupiter.api.Test;

/** The pages and their assets as plain HTTP answers: where they live and the headers that protect them. */
class DashboardPagesTest extends IntegrationTest {

    @Test
    void shouldRedirectTheRootToTheDashboard() {
        Api.Response root = api().get("/");

        assertThat(root.status()).isEqualTo(302);
        assertThat(root.header("Location")).endsWith("/dashboard");
    }

    @Test
    void shouldServeEveryPageAsHtmlWithTheContentSecurityPolicy() {
        for (String path : new String[] {
            "/login",
            "/signup",
            "/dashboard",
            "/dashboard/billing",
            "/dashboard/activity",
            "/dashboard/members",
            "/dashboard/account",
            "/accept-invitation",
            "/dashboard/accept-invitation",
            "/dashboard/webhooks",
            "/forgot-password",
            "/dashboard/forgot-password",
            "/reset-password",
            "/dashboard/reset-password",
            "/verify-email",
            "/dashboard/verify-email",
            "/confirm-email-change",
            "/dashboard/confirm-email-change"
        }) {
            Api.Response page = api().get(path);

            assertThat(page.status()).as(path).isEqualTo(200);
            assertThat(page.header("Content-Type")).as(path).startsWith("text/html");
            assertThat(page.header("Content-Security-Policy")).as(path).contains("default-src 'self'");
            assertThat(page.body()).as(path).contains("<script type=\"module\" src=\"/assets/");
            // every fragment the page names is in place
            assertThat(page.body()).as(path).doesNotContain("<!--#");
            // and every value it takes is filled in
            assertThat(page.body()).as(path).doesNotContainPattern("\\{[a-z-]+}");
            // no inline script: the CSP would refuse it
            assertThat(page.body().replaceAll("<script type=\"module\" src=\"[^\"]+\"></script>", ""))
                    .as(path)
                    .doesNotContain("<script");
        }
    }

    @Test
    void shouldServeTheScriptsAsJavaScriptAndTheStylesheetAsCss() {
        for (String script : new String[] {
            "api",
            "ui",
            "shell",
            "auth",
            "keys",
            "billing",
            "activity",
            "recovery",
            "account",
            "members",
            "invitation",
            "webhooks"
        }) {
            Api.Response asset = api().get("/assets/" + script + ".js");

            assertThat(asset.status()).as(script).isEqualTo(200);
            assertThat(asset.header("Content-Type")).as(script).contains("javascript");
        }
        Api.Response css = api().get("/assets/app.css");
        assertThat(css.status()).isEqualTo(200);
        assertThat(css.header("Content-Type")).startsWith("text/css");
    }

    @Test
    void shouldAnswer404ForAnUnknownDashboardPage() {
        assertThat(api().get("/dashboard/nothing-here").status()).isEqualTo(404);
    }
}
