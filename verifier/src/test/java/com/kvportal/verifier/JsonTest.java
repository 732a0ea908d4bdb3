package com.kvportal.verifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void readsVerifysAnswer() {
        Map<String, Object> body = Json.object(
                """
                {"customer_id":"6f1c0e9a-1b2c-4d5e-8f90-0a1b2c3d4e5f","permissions":["read","write"],
                 "tier":"free","storage":{"used_bytes":1073741824,"allowance_bytes":1.5e9,"write_allowed":false,
                 "reason":null},"cacheable":true,"allowed_ips":null,"metadata":{"team":"a \\"b\\" \\u00e9\\n"}}""");
        assertThat(body.get("permissions")).isEqualTo(List.of("read", "write"));
        assertThat(body.get("cacheable")).isEqualTo(true);
        assertThat(body).containsEntry("allowed_ips", null);
        @SuppressWarnings("unchecked")
        Map<String, Object> storage = (Map<String, Object>) body.get("storage");
        assertThat(storage.get("used_bytes")).isEqualTo(1073741824L);
        assertThat(storage.get("allowance_bytes")).isEqualTo(1.5e9);
        assertThat(storage.get("write_allowed")).isEqualTo(false);
        assertThat(((Map<?, ?>) body.get("metadata")).get("team")).isEqualTo("a \"b\" é\n");
    }

    @Test
    void readsEmptyContainersAndNegativeNumbers() {
        assertThat(Json.parse(" [ ] ")).isEqualTo(List.of());
        assertThat(Json.parse("{}")).isEqualTo(Map.of());
        assertThat(Json.parse("-12")).isEqualTo(-12L);
        assertThat(Json.parse("[1,[2],{\"a\":[]}]")).isEqualTo(List.of(1L, List.of(2L), Map.of("a", List.of())));
    }

    @Test
    void refusesWhatIsNotOneJsonValue() {
        for (String text : Arrays.asList(
                "", "{", "{\"a\" 1}", "[1,]", "{\"a\":1} x", "\"open", "nul", "{'a':1}", "\"\\x\"", "\"a\u0001\"")) {
            assertThatThrownBy(() -> Json.parse(text))
                    .as(text)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("malformed JSON");
        }
        assertThatThrownBy(() -> Json.object("[1]")).hasMessageContaining("not a JSON object");
    }

    @Test
    void quotesWhatItSends() {
        String text = "203.0.113.7 \"\\\n\t\u0001";
        assertThat(Json.quote(text)).isEqualTo("\"203.0.113.7 \\\"\\\\\\n\\t\\u0001\"");
        assertThat(Json.parse(Json.quote(text))).isEqualTo(text);
    }
}
