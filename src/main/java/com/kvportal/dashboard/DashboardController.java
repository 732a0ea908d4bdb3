package com.kvportal.dashboard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * Serves the dashboard's pages at clean paths. The pages are static: their scripts ask the API who is signed in
 * and send the browser to {@code /login} on a 401, so no page here needs to know about the session. The signed-in
 * pages share the top bar and the new-project dialog, the pages outside the dashboard the card they sit in and
 * the fields they have in common, and every page the head, written once in {@code dashboard/fragments}. A page
 * names its title and script in its first line, {@code <!--#head title="Log in" script="auth"-->}, and takes in
 * a fragment with a line of its own, {@code <!--#topbar-->} for {@code fragments/topbar.html}.
 */
@Controller
class DashboardController {

    private static final MediaType HTML = new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8);
    private static final Pattern HEAD = Pattern.compile("<!--#head title=\"([^\"]+)\" script=\"([^\"]+)\"-->\n");
    private static final Pattern FRAGMENT = Pattern.compile("(?m)^[ \\t]*<!--#([a-z-]+)-->\n");

    private final String login = page("login.html", "/login");
    private final String signup = page("signup.html", "/signup");
    private final String keys = page("keys.html", "/dashboard");
    private final String billing = page("billing.html", "/dashboard/billing");
    private final String activity = page("activity.html", "/dashboard/activity");
    private final String webhooks = page("webhooks.html", "/dashboard/webhooks");
    private final String account = page("account.html", "/dashboard/account");
    private final String members = page("members.html", "/dashboard/members");
    // the pages that mailed links open (section 12 of the contract), and the request for a reset link
    private final String forgotPassword = page("forgot-password.html", "/forgot-password");
    private final String resetPassword = page("reset-password.html", "/reset-password");
    private final String verifyEmail = page("verify-email.html", "/verify-email");
    private final String confirmEmailChange = page("confirm-email-change.html", "/confirm-email-change");
    private final String acceptInvitation = page("accept-invitation.html", "/accept-invitation");

    @GetMapping("/")
    ResponseEntity<Void> home() {
        return ResponseEntity.status(HttpStatus.FOUND)
                .header(HttpHeaders.LOCATION, "/dashboard")
                .build();
    }

    @GetMapping("/login")
    ResponseEntity<String> login() {
        return html(login);
    }

    @GetMapping("/signup")
    ResponseEntity<String> signup() {
        return html(signup);
    }

    @GetMapping("/dashboard")
    ResponseEntity<String> keys() {
        return html(keys);
    }

    @GetMapping("/dashboard/billing")
    ResponseEntity<String> billing() {
        return html(billing);
    }

    @GetMapping("/dashboard/activity")
    ResponseEntity<String> activity() {
        return html(activity);
    }

    @GetMapping("/dashboard/webhooks")
    ResponseEntity<String> webhooks() {
        return html(webhooks);
    }

    @GetMapping("/dashboard/account")
    ResponseEntity<String> account() {
        return html(account);
    }

    @GetMapping("/dashboard/members")
    ResponseEntity<String> members() {
        return html(members);
    }

    @GetMapping({"/accept-invitation", "/dashboard/accept-invitation"})
    ResponseEntity<String> acceptInvitation() {
        return html(acceptInvitation);
    }

    @GetMapping({"/forgot-password", "/dashboard/forgot-password"})
    ResponseEntity<String> forgotPassword() {
        return html(forgotPassword);
    }

    @GetMapping({"/reset-password", "/dashboard/reset-password"})
    ResponseEntity<String> resetPassword() {
        return html(resetPassword);
    }

    @GetMapping({"/verify-email", "/dashboard/verify-email"})
    ResponseEntity<String> verifyEmail() {
        return html(verifyEmail);
    }

    @GetMapping({"/confirm-email-change", "/dashboard/confirm-email-change"})
    ResponseEntity<String> confirmEmailChange() {
        return html(confirmEmailChange);
    }

    /** Pages change with each release and carry no data, so the browser revalidates them every time. */
    private static ResponseEntity<String> html(String page) {
        return ResponseEntity.ok()
                .contentType(HTML)
                .cacheControl(CacheControl.noCache())
                .body(page);
    }

    /** The page with its fragments in place and its own link in the main navigation marked as current. */
    private static String page(String file, String path) {
        return withFragments(withHead(file, read(file)))
                .replace("<a href=\"" + path + "\">", "<a href=\"" + path + "\" aria-current=\"page\">");
    }

    /** The page with the shared head in place of its {@code <!--#head ...-->} line. */
    private static String withHead(String file, String page) {
        Matcher head = HEAD.matcher(page);
        if (!head.find()) {
            throw new IllegalStateException(
                    "dashboard/" + file + " names no head: <!--#head title=\"…\" script=\"…\"-->");
        }
        String filled =
                read("fragments/head.html").replace("{title}", head.group(1)).replace("{script}", head.group(2));
        return page.substring(0, head.start()) + filled + page.substring(head.end());
    }

    /** The page with each {@code <!--#name-->} line replaced by {@code fragments/name.html}; a missing one fails at start. */
    private static String withFragments(String page) {
        return FRAGMENT.matcher(page)
                .replaceAll(fragment -> Matcher.quoteReplacement(read("fragments/" + fragment.group(1) + ".html")));
    }

    private static String read(String file) {
        try {
            return new ClassPathResource("dashboard/" + file).getContentAsString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
