package com.kvportal.verifier;

import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Reads a lease's Server-Sent Events stream line by line: {@code id:}, {@code event:} and {@code data:} fields, a
 * blank line ending each event, comment lines (the service's {@code : keepalive}) and unknown fields ignored, as
 * the HTML standard's event-stream parsing says. Each event's data is the JSON {@code {seq, type, key_id?,
 * organization_id?}}; an event without data is ignored, one whose data is not that JSON ends the stream (the
 * caller reconnects and the service sends it again).
 */
final class EventStream {

    /** One invalidation: {@code key.changed}, {@code organization.changed}, {@code reset}, or a type added later. */
    record Event(long seq, String type, UUID keyId, UUID organizationId) {}

    private final Consumer<Event> handler;
    private final StringBuilder data = new StringBuilder();
    private boolean hasData;

    EventStream(Consumer<Event> handler) {
        this.handler = handler;
    }

    /** One line, without its line break. */
    void line(String line) {
        if (line.isEmpty()) {
            dispatch();
            return;
        }
        if (line.charAt(0) == ':') {
            return; // a comment: the keepalive
        }
        int colon = line.indexOf(':');
        String field = colon < 0 ? line : line.substring(0, colon);
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        if (field.equals("data")) {
            if (hasData) {
                data.append('\n');
            }
            data.append(value);
            hasData = true;
        }
        // id and event repeat what the data says; retry and unknown fields mean nothing here
    }

    private void dispatch() {
        if (!hasData) {
            return;
        }
        String text = data.toString();
        data.setLength(0);
        hasData = false;
        handler.accept(event(text));
    }

    static Event event(String json) {
        Map<String, Object> fields = Json.object(json);
        if (!(fields.get("seq") instanceof Long seq) || !(fields.get("type") instanceof String type)) {
            throw new IllegalArgumentException("an event without seq or type: " + json);
        }
        return new Event(seq, type, uuid(fields.get("key_id")), uuid(fields.get("organization_id")));
    }

    private static UUID uuid(Object value) {
        return value instanceof String text ? UUID.fromString(text) : null;
    }
}
