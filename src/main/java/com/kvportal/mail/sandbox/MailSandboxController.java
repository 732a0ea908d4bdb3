package com.kvportal.mail.sandbox;

import com.kvportal.common.web.CommonProblem;
import com.kvportal.common.web.ProblemException;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.HtmlUtils;

/**
 * The mail sandbox's surface: {@code /sandbox/mail}, where a person reads every message (newest first, its HTML and
 * its text with clickable links), and {@code /sandbox/mail/messages?to=} for scripts. Only for the clients {@link
 * MailSandboxAccess} allows; to anyone else, and with {@code SMTP_URL} set, these paths do not exist.
 */
@RestController
@MailSandboxMode
@RequiredArgsConstructor
class MailSandboxController {

    private static final MediaType HTML = new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8);
    private static final Pattern LINK = Pattern.compile("https?://[^\\s<>\"]+");

    private final SandboxMailbox mailbox;
    private final MailSandboxAccess access;

    record MessageList(List<SandboxMailbox.Message> messages) {}

    @GetMapping("/sandbox/mail/messages")
    ResponseEntity<MessageList> messages(
            @RequestParam(required = false) @Nullable String to, HttpServletRequest request) {
        allowed(request);
        return ResponseEntity.ok()
                .cacheControl(CacheControl.noStore())
                .body(new MessageList(mailbox.newest(to == null || to.isBlank() ? null : to.strip())));
    }

    @GetMapping("/sandbox/mail")
    ResponseEntity<String> page(@RequestParam(required = false) @Nullable String to, HttpServletRequest request) {
        allowed(request);
        List<SandboxMailbox.Message> messages = mailbox.newest(to == null || to.isBlank() ? null : to.strip());
        StringBuilder page = new StringBuilder(
                """
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>Mail sandbox · kv-portal</title>
                <link rel="stylesheet" href="/assets/app.css">
                </head><body><main class="sandbox-mail" style="max-width:60rem;margin:0 auto;padding:1rem">
                <h1>Mail sandbox</h1>
                <p>Every message the service sent while no SMTP server is configured, newest first.</p>
                """);
        if (messages.isEmpty()) {
            page.append("<p class=\"empty\">No messages yet.</p>\n");
        }
        for (SandboxMailbox.Message message : messages) {
            page.append("<article class=\"mail\" data-to=\"")
                    .append(escape(message.to()))
                    .append("\" style=\"border:1px solid #ccc;border-radius:6px;padding:1rem;margin:1rem 0\">\n")
                    .append("<h2 class=\"mail-subject\">")
                    .append(escape(message.subject()))
                    .append("</h2>\n<p>To <span class=\"mail-to\">")
                    .append(escape(message.to()))
                    .append("</span> · <time>")
                    .append(message.sentAt())
                    .append("</time></p>\n<details open><summary>Text</summary><pre class=\"mail-text\""
                            + " style=\"white-space:pre-wrap\">")
                    .append(linked(message.text()))
                    .append("</pre></details>\n<details><summary>HTML</summary>")
                    // the message's own HTML, isolated: no script, links open outside the frame
                    .append("<iframe class=\"mail-html\" title=\"HTML part\" sandbox=\"allow-popups"
                            + " allow-top-navigation-by-user-activation\" style=\"width:100%;min-height:20rem;border:0\""
                            + " srcdoc=\"")
                    .append(escape(message.html()))
                    .append("\"></iframe></details>\n</article>\n");
        }
        page.append("</main></body></html>\n");
        return ResponseEntity.ok()
                .contentType(HTML)
                .cacheControl(CacheControl.noStore())
                .body(page.toString());
    }

    private void allowed(HttpServletRequest request) {
        if (!access.allows(request)) {
            throw new ProblemException(CommonProblem.NOT_FOUND);
        }
    }

    /** The text escaped, each http(s) URL in it a link. */
    private static String linked(String text) {
        String escaped = escape(text);
        Matcher links = LINK.matcher(escaped);
        StringBuilder out = new StringBuilder();
        while (links.find()) {
            String url = links.group();
            links.appendReplacement(
                    out, Matcher.quoteReplacement("<a class=\"mail-link\" href=\"" + url + "\">" + url + "</a>"));
        }
        links.appendTail(out);
        return out.toString();
    }

    private static String escape(String text) {
        return HtmlUtils.htmlEscape(text, StandardCharsets.UTF_8.name());
    }
}
