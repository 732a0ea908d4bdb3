package com.kvportal.dashboard;

import com.kvportal.security.SessionCaller;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Serves the dashboard's pages at clean paths. The pages are static: their scripts ask the API who is signed in
 * and send the browser to {@code /login} on a 401, so no page here needs to know about the session. What pages
 * have in common is written once in {@code dashboard/fragments}: the head, the frame of a signed-in page (top bar,
 * new-project dialog) and of a page outside the dashboard, fields, dialogs and tables. A page takes in a fragment
 * with a line of its own, {@code <!--#topbar-->} for {@code fragments/topbar.html}; the line may name values,
 * {@code <!--#head title="Log in" script="auth"-->}, that fill the fragment's {@code {title}} and {@code {script}}.
 * A fragment may take in others, and takes the indentation of the line that names it.
 *
 * <p>A page in the dashboard's frame is for a signed-in person: without one, its path leads to the log-in page, which
 * says "Your session has ended" only when the browser still sent the cookie of a session that has ended. Any other
 * path under {@code /dashboard/} answers an HTML page "not found" with a way back.
 */
@Controller
class DashboardController {

    private static final MediaType HTML = new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8);
    private static final Pattern FRAGMENT =
            Pattern.compile("(?m)^([ \\t]*)<!--#([a-z-]+)((?: [a-z-]+=\"[^\"]*\")*)-->\n");
    private static final Pattern VALUE = Pattern.compile(" ([a-z-]+)=\"([^\"]*)\"");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z-]+)}");

    /** Each page by the path it is served at: the paths of {@link #page}'s mapping, listed there once. */
    private final Map<String, String> pages = new HashMap<>();

    /** The paths of the pages in the dashboard's frame (top bar, navigation): they need a signed-in person. */
    private final Set<String> signedIn = new HashSet<>();

    private final String notFound = read("errors/not-found.html");

    DashboardController() throws NoSuchMethodException {
        GetMapping mapping = DashboardController.class
                .getDeclaredMethod("page", HttpServletRequest.class)
                .getAnnotation(GetMapping.class);
        for (String path : mapping.value()) {
            pages.put(path, render(path));
            if (read(file(path)).startsWith("<!--#dashboard-page-start")) {
                signedIn.add(path);
            }
        }
    }

    @GetMapping("/")
    ResponseEntity<Void> home() {
        return ResponseEntity.status(HttpStatus.FOUND)
                .header(HttpHeaders.LOCATION, "/dashboard")
                .build();
    }

    /**
     * The pages. A path serves the file its last segment names ({@code /dashboard/billing}: {@code billing.html}),
     * {@code /dashboard} the keys page; the pages that mailed links open (docs/mail.md, Account security), and the
     * request for a reset link, are served both at the root and under {@code /dashboard}.
     */
    @GetMapping({
        "/login",
        "/signup",
        "/dashboard",
        "/dashboard/verifications",
        "/dashboard/billing",
        "/dashboard/activity",
        "/dashboard/webhooks",
        "/dashboard/account",
        "/dashboard/members",
        "/accept-invitation",
        "/dashboard/accept-invitation",
        "/forgot-password",
        "/dashboard/forgot-password",
        "/reset-password",
        "/dashboard/reset-password",
        "/verify-email",
        "/dashboard/verify-email",
        "/confirm-email-change",
        "/dashboard/confirm-email-change"
    })
    ResponseEntity<String> page(HttpServletRequest request) {
        String path = (String) request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        if (signedIn.contains(path) && SessionCaller.of(request).isEmpty()) {
            return toLogin(request, path);
        }
        return html(pages.get(path));
    }

    /** A mistyped or outdated address under the dashboard: a page a person can read, with a way back. */
    @GetMapping("/dashboard/**")
    ResponseEntity<String> notFound() {
        return ResponseEntity.status(HttpStatus.NOT_FOUND)
                .contentType(HTML)
                .cacheControl(CacheControl.noCache())
                .body(notFound);
    }

    /**
     * The log-in page, which brings the person back to {@code path} afterwards. A session id that no longer names a
     * session (it expired, or every session was ended) is a session that ended; no session id is a first visit.
     */
    private static ResponseEntity<String> toLogin(HttpServletRequest request, String path) {
        boolean ended = request.getRequestedSessionId() != null && !request.isRequestedSessionIdValid();
        String location = "/login?" + (ended ? "reason=expired&" : "") + "next="
                + URLEncoder.encode(path, StandardCharsets.UTF_8);
        return ResponseEntity.status(HttpStatus.FOUND)
                .header(HttpHeaders.LOCATION, location)
                .cacheControl(CacheControl.noStore())
                .build();
    }

    /** Pages change with each release and carry no data, so the browser revalidates them every time. */
    private static ResponseEntity<String> html(String page) {
        return ResponseEntity.ok()
                .contentType(HTML)
                .cacheControl(CacheControl.noCache())
                .body(page);
    }

    /** The page served at the path, its own link in the main navigation marked as current. */
    private static String render(String path) {
        String file = file(path);
        return withFragments(file, read(file))
                .replace("<a href=\"" + path + "\"", "<a href=\"" + path + "\" aria-current=\"page\"");
    }

    /** The file of the page at the path: its last segment, {@code /dashboard} the keys page. */
    private static String file(String path) {
        return path.equals("/dashboard") ? "keys.html" : path.substring(path.lastIndexOf('/') + 1) + ".html";
    }

    /** The text with each fragment line replaced by the fragment; a missing fragment or value fails at start. */
    private static String withFragments(String file, String text) {
        return FRAGMENT.matcher(text).replaceAll(line -> Matcher.quoteReplacement(fragment(file, line)));
    }

    private static String fragment(String file, MatchResult line) {
        String indent = line.group(1);
        String name = "fragments/" + line.group(2) + ".html";
        Map<String, String> values = VALUE.matcher(line.group(3))
                .results()
                .collect(Collectors.toMap(value -> value.group(1), value -> value.group(2)));
        String filled = PLACEHOLDER.matcher(read(name)).replaceAll(placeholder -> {
            String value = values.get(placeholder.group(1));
            if (value == null) {
                throw new IllegalStateException(
                        "dashboard/" + file + " takes in " + name + " without a value for " + placeholder.group(1));
            }
            return Matcher.quoteReplacement(value);
        });
        return withFragments(name, filled)
                .lines()
                .map(text -> text.isEmpty() ? text : indent + text)
                .collect(Collectors.joining("\n", "", "\n"));
    }

    private static String read(String file) {
        try {
            return new ClassPathResource("dashboard/" + file).getContentAsString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
