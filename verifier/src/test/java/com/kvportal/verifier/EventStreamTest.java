package com.kvportal.verifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.kvportal.verifier.EventStream.Event;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class EventStreamTest {

    private static final UUID KEY = UUID.fromString("11111111-2222-4333-8444-555555555555");
    private static final UUID ORGANIZATION = UUID.fromString("aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee");

    private final List<Event> events = new ArrayList<>();
    private final EventStream stream = new EventStream(events::add);

    private void lines(String text) {
        text.lines().forEach(stream::line);
        if (text.endsWith("\n\n")) {
            stream.line(""); // String.lines() drops the last empty line
        }
    }

    @Test
    void readsEachEventAtItsBlankLineAndSkipsKeepalives() {
        lines(": keepalive\n\n"
                + "id: 7\nevent: key.changed\ndata: {\"seq\":7,\"type\":\"key.changed\",\"key_id\":\"" + KEY + "\"}\n\n"
                + ": keepalive\n\n"
                + "id: 8\nevent: organization.changed\n"
                + "data: {\"seq\":8,\"type\":\"organization.changed\",\"organization_id\":\"" + ORGANIZATION
                + "\"}\n\n"
                + "id: 9\nevent: reset\ndata:{\"seq\":9,\"type\":\"reset\"}\n\n");
        assertThat(events)
                .containsExactly(
                        new Event(7, "key.changed", KEY, null),
                        new Event(8, "organization.changed", null, ORGANIZATION),
                        new Event(9, "reset", null, null));
    }

    @Test
    void anEventIsDispatchedOnlyWhenItsBlankLineArrives() {
        stream.line("id: 3");
        stream.line("data: {\"seq\":3,");
        stream.line("data: \"type\":\"reset\"}");
        assertThat(events).isEmpty();
        stream.line("");
        assertThat(events).containsExactly(new Event(3, "reset", null, null));
    }

    @Test
    void ignoresUnknownFieldsAndEventsWithoutData() {
        lines("retry: 1000\nid: 4\nevent: reset\n\nfoo: bar\ndata: {\"seq\":5,\"type\":\"something.new\"}\n\n");
        assertThat(events).containsExactly(new Event(5, "something.new", null, null));
    }

    @Test
    void dataThatIsNotAnEventEndsTheStream() {
        stream.line("data: {\"type\":\"reset\"}");
        assertThatThrownBy(() -> stream.line("")).hasMessageContaining("without seq");
        stream.line("data: not json");
        assertThatThrownBy(() -> stream.line("")).hasMessageContaining("malformed JSON");
    }
}
