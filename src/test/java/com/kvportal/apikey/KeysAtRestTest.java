package com.kvportal.apikey;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.SignedInTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeysAtRestTest extends SignedInTest {

    @Test
    void shouldStoreOnlyTheSha256DigestOfTheRawKey() {
        String raw = session.createKey("at rest");

        List<Map<String, Object>> rows = jdbc.sql("select *, digest = sha256(?::bytea) as digest_matches,"
                        + " row_to_json(api_keys)::text as everything from api_keys where project_id = ?")
                .param(raw)
                .param(account.projectId())
                .query()
                .listOfRows();

        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).get("digest_matches")).isEqualTo(true);
        String everything = (String) rows.get(0).get("everything");
        assertThat(everything).doesNotContain(raw).doesNotContain(raw.substring(3, 29));
        // nothing else in the database holds it either
        String dump = jdbc.sql("select string_agg(t::text, '') from spring_session_attributes t")
                .query(String.class)
                .optional()
                .orElse("");
        assertThat(dump).doesNotContain(raw);
    }
}
