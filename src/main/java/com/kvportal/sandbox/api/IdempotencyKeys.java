package com.kvportal.sandbox.api;

import java.util.Optional;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of {@code sandbox_idempotency_keys}: the first answer to each key, replayed to later calls. */
@Repository
@RequiredArgsConstructor
public class IdempotencyKeys {

    record Stored(String fingerprint, @Nullable Integer status, @Nullable String body) {}

    private final JdbcClient jdbc;

    /**
     * Takes the key for this transaction's call. A concurrent call with the same key waits here until this one
     * commits (then it finds the stored answer) or rolls back (then it takes the key itself).
     */
    boolean claim(String key, String fingerprint) {
        return jdbc.sql("insert into sandbox_idempotency_keys (key, fingerprint) values (?, ?) on conflict do nothing")
                        .params(key, fingerprint)
                        .update()
                == 1;
    }

    Optional<Stored> find(String key) {
        return jdbc.sql("select fingerprint, status, body from sandbox_idempotency_keys where key = ?")
                .param(key)
                .query((rs, n) ->
                        new Stored(rs.getString("fingerprint"), (Integer) rs.getObject("status"), rs.getString("body")))
                .optional();
    }

    public void forgetAfter24Hours() {
        jdbc.sql("delete from sandbox_idempotency_keys where created_at < now() - interval '24 hours'")
                .update();
    }

    void answer(String key, int status, String body) {
        jdbc.sql("update sandbox_idempotency_keys set status = ?, body = ? where key = ?")
                .params(status, body, key)
                .update();
    }
}
