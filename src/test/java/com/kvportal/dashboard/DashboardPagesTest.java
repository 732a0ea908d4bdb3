package com.kvportal.dashboard;

import static com.kvportal.support.Redirects.assertRedirect;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.web.bind.annotation.GetMapping;

/** The pages and their assets as plain HTTP answers: where they live and the headers that protect them. */
class DashboardPagesTest extends IntegrationTest {

    @Test
    void shouldRedirectTheRootToTheDashboard() {
        assertRedirect(api().get("/"), 302).endsWith("/dashboard");
    }

    /**
     * Every path of the page mapping, read from the controller's one list of them. The pages that mailed links open,
     * and the request for a reset link, are served at the root and again under {@code /dashboard}; every page file
     * has a path, and every path serves one.
     */
    @Test
    void shouldServeEveryPageAsHtmlWithTheContentSecurityPolicy() throws Exception {
        List<String> paths = List.of(DashboardController.class
                .getDeclaredMethod("page", HttpServletRequest.class)
                .getAnnotation(GetMapping.class)
                .value());
        assertThat(paths)
                .as("the root pages but log-in and signup, also under /dashboard")
                .containsAll(paths.stream()
                        .filter(path ->
                                !path.startsWith("/dashboard") && !path.equals("/login") && !path.equals("/signup"))
                        .map(path -> "/dashboard" + path)
                        .toList());
        assertThat(paths.stream()
                        .map(path -> path.equals("/dashboard") ? "keys" : path.substring(path.lastIndexOf('/') + 1))
                        .distinct())
                .as("the page files, each served at a path")
                .containsExactlyInAnyOrderElementsOf(pageFiles());
        Api signedIn = signedUp();
        for (String path : paths) {
            Api.Response page = signedIn.get(path);

            assertHtmlPage(page, path, 200);
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

    /** The names of the page files, {@code dashboard/*.html} (the fragments are in a folder of their own). */
    private static List<String> pageFiles() throws IOException {
        return Arrays.stream(new PathMatchingResourcePatternResolver().getResources("classpath:dashboard/*.html"))
                .map(page -> page.getFilename().replace(".html", ""))
                .toList();
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
            "webhooks",
            "verifications",
            "verifications-chart"
        }) {
            Api.Response asset = api().get("/assets/" + script + ".js");

            assertThat(asset.status()).as(script).isEqualTo(200);
            assertThat(asset.header("Content-Type")).as(script).contains("javascript");
        }
        Api.Response css = api().get("/assets/app.css");
        assertThat(css.status()).isEqualTo(200);
        assertThat(css.header("Content-Type")).startsWith("text/css");
    }

    /** A first visit: the log-in page, which then brings the person to the page asked for, without a word of an end. */
    @Test
    void shouldLeadAFirstVisitToTheLogInPageWithoutSayingThatASessionEnded() {
        for (String path : List.of(
                "/dashboard",
                "/dashboard/billing",
                "/dashboard/webhooks",
                "/dashboard/activity",
                "/dashboard/verifications",
                "/dashboard/members",
                "/dashboard/account")) {
            assertRedirect(api().get(path), 302)
                    .isEqualTo("/login?next=" + path.replace("/", "%2F"))
                    .doesNotContain("reason");
        }
        assertRedirect(api().follow(api().get("/")), 302).isEqualTo("/login?next=%2Fdashboard");
    }

    /** The browser still sends the cookie of a session that has ended (expired, or ended everywhere): so it says. */
    @Test
    void shouldSayThatTheSessionEndedWhenTheCookieNamesASessionThatIsGone() {
        Api session = signedUp();
        assertThat(session.get("/dashboard/billing").status()).isEqualTo(200);

        jdbc.sql("delete from spring_session").update();

        assertRedirect(session.get("/dashboard/billing"), 302)
                .isEqualTo("/login?reason=expired&next=%2Fdashboard%2Fbilling");
    }

    @Test
    void shouldAnswerAnUnknownDashboardPageWithAnHtmlPageAndAWayBack() {
        for (String path : List.of("/dashboard/nothing-here", "/dashboard/typo/deeper", "/dashboard/billing/")) {
            Api.Response page = api().get(path);

            assertHtmlPage(page, path, 404);
            assertThat(page.body()).as(path).contains("<h1 id=\"title\">Page not found</h1>");
            assertThat(page.body()).as(path).contains("href=\"/dashboard\"");
            assertThat(page.body()).as(path).doesNotContain("\"code\"");
        }
    }

    /** An HTML page with this status, under the dashboard's Content-Security-Policy. */
    private static void assertHtmlPage(Api.Response page, String path, int status) {
        assertThat(page.status()).as(path).isEqualTo(status);
        assertThat(page.header("Content-Type")).as(path).startsWith("text/html");
        assertThat(page.header("Content-Security-Policy")).as(path).contains("default-src 'self'");
    }
}
