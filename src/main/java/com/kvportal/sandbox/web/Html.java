package com.kvportal.sandbox.web;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.util.HtmlUtils;

/**
 * The sandbox's pages: plain HTML with every value escaped, no script (the CSP allows none), a banner saying that
 * no real money moves.
 */
public final class Html {

    private static final DateTimeFormatter DATE =
            DateTimeFormatter.ofPattern("d MMMM yyyy", Locale.ENGLISH).withZone(ZoneOffset.UTC);

    private static final String STYLE =
            """
            body{font-family:system-ui,sans-serif;background:#f6f8fa;color:#1f2328;margin:0}
            .banner{background:#ffd33d;color:#3b2300;text-align:center;padding:.5rem;font-weight:600}
            main{max-width:32rem;margin:2rem auto;background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:1.5rem}
            h1{font-size:1.3rem;margin-top:0}
            .price{font-size:1.8rem;font-weight:600;margin:.5rem 0}
            .muted{color:#59636e}
            .error{background:#ffebe9;border:1px solid #ff8182;padding:.75rem;border-radius:6px;margin-bottom:1rem}
            .ok{background:#dafbe1;border:1px solid #4ac26b;padding:.75rem;border-radius:6px;margin-bottom:1rem}
            form{display:inline}
            button,.button{display:inline-block;font:inherit;padding:.5rem 1rem;margin:.25rem .25rem .25rem 0;border-radius:6px;
              border:1px solid #d0d7de;background:#f6f8fa;color:#1f2328;cursor:pointer;text-decoration:none}
            button.primary{background:#1f883d;border-color:#1f883d;color:#fff}
            button.danger{background:#cf222e;border-color:#cf222e;color:#fff}
            table{border-collapse:collapse;width:100%;margin:1rem 0}
            td{padding:.3rem 0;border-bottom:1px solid #eaeef2}
            """;

    private Html() {}

    static String escape(@Nullable String text) {
        return text == null ? "" : HtmlUtils.htmlEscape(text, "UTF-8");
    }

    static String date(long unixSeconds) {
        return DATE.format(Instant.ofEpochSecond(unixSeconds));
    }

    static ResponseEntity<String> page(int status, String title, String body) {
        String html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<meta name=\"robots\" content=\"noindex\">"
                + "<title>" + escape(title) + " · Sandbox</title><style>" + STYLE + "</style></head><body>"
                + "<div class=\"banner\" id=\"sandbox-banner\">SANDBOX — no real money</div><main>" + body
                + "</main></body></html>\n";
        return ResponseEntity.status(status)
                .contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .body(html);
    }

    static ResponseEntity<String> notFound(String what) {
        return page(
                404,
                "Not found",
                "<h1>Not found</h1><p class=\"muted\">This " + escape(what) + " does not exist in the sandbox.</p>");
    }

    /** A button that posts a form; {@code fields} are name/value pairs of hidden inputs. */
    static String postButton(String action, String id, String label, String cssClass, String... fields) {
        StringBuilder html = new StringBuilder("<form method=\"post\" action=\"" + escape(action) + "\">");
        for (int i = 0; i + 1 < fields.length; i += 2) {
            html.append("<input type=\"hidden\" name=\"")
                    .append(escape(fields[i]))
                    .append("\" value=\"")
                    .append(escape(fields[i + 1]))
                    .append("\">");
        }
        return html.append("<button type=\"submit\" id=\"")
                .append(escape(id))
                .append("\" class=\"")
                .append(escape(cssClass))
                .append("\">")
                .append(escape(label))
                .append("</button></form>")
                .toString();
    }

    static String link(String href, String id, String label) {
        return "<a class=\"button\" id=\"" + escape(id) + "\" href=\"" + escape(href) + "\">" + escape(label) + "</a>";
    }
}
