package com.kvportal.support;

import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The mail sandbox as a test reads it: through {@code GET /sandbox/mail/messages?to=}, over HTTP like a script,
 * so that a message counts only once it has passed through the sandbox's SMTP server.
 */
public final class Inbox {

    private static final Pattern LINK = Pattern.compile("https?://\\S+");

    private final Api api;
    private final String address;

    public Inbox(String base, String address) {
        this.api = new Api(base);
        this.address = address;
    }

    /** Every message to the address, newest first. */
    public List<JsonNode> messages() {
        Api.Response response =
                api.get("/sandbox/mail/messages?to=" + java.net.URLEncoder.encode(address, StandardCharsets.UTF_8));
        if (response.status() != 200) {
            throw new IllegalStateException("mail sandbox: " + response);
        }
        List<JsonNode> messages = new ArrayList<>();
        response.json().get("messages").forEach(messages::add);
        return messages;
    }

    /** The newest message whose subject contains the text, waiting up to 10 s for it (the bound docs/mail.md states). */
    public JsonNode awaitMessage(String subject) {
        AtomicReference<JsonNode> found = new AtomicReference<>();
        await("a message '" + subject + "' to " + address)
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    messages().stream()
                            .filter(m -> m.get("subject").asString().contains(subject))
                            .findFirst()
                            .ifPresent(found::set);
                    return found.get() != null;
                });
        return found.get();
    }

    /** How many messages whose subject contains the text the address has. */
    public long count(String subject) {
        return messages().stream()
                .filter(m -> m.get("subject").asString().contains(subject))
                .count();
    }

    /** The first link in the message's text part. */
    public static URI link(JsonNode message) {
        Matcher link = LINK.matcher(message.get("text").asString());
        if (!link.find()) {
            throw new AssertionError("no link in " + message);
        }
        return URI.create(link.group());
    }

    /** The {@code token} parameter of the first link in the message's text part. */
    public static String token(JsonNode message) {
        String query = link(message).getRawQuery();
        for (String pair : query.split("&")) {
            if (pair.startsWith("token=")) {
                return URLDecoder.decode(pair.substring("token=".length()), StandardCharsets.UTF_8);
            }
        }
        throw new AssertionError("no token in " + link(message));
    }
}
