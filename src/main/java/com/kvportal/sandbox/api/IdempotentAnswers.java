package com.kvportal.sandbox.api;

import com.kvportal.sandbox.SandboxDatabase;
import java.util.Optional;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Repository;

/** The SQL of {@code sandbox.sandbox_idempotency_keys}: the first answer to each key, replayed to later calls. */
@Repository
@RequiredArgsConstructor
public class IdempotentAnswers {

    record Stored(String fingerprint, @Nullable Integer status, @Nullable String body) {}

    private final SandboxDatabase database;

    /**
     * Takes the key for this transaction's call. A concurrent call with the same key waits here until this one
     * commits (then it finds the stored answer) or rolls back (then it takes the key itself).
     */
    boolean claim(String key, String fingerprint) {
        return database.sql(
                                "insert into sandbox.sandbox_idempotency_keys (key, fingerprint) values (?, ?) on conflict do nothing")
                        .params(key, fingerprint)
                        .update()
                == 1;
    }

    Optional<Stored> find(String key) {
        return database.sql("select fingerprint, status, body from sandbox.sandbox_idempotency_keys where key = ?")
                .param(key)
                .query((rs, n) ->
                        new Stored(rs.getString("fingerprint"), (Integer) rs.getObject("status"), rs.getString("body")))
                .optional();
    }

    public void forgetAfter24Hours() {
        database.sql("delete from sandbox.sandbox_idempotency_keys where created_at < now() - interval '24 hours'")
                .update();
    }

    void answer(String key, int status, String body) {
        database.sql("update sandbox.sandbox_idempotency_keys set status = ?, body = ? where key = ?")
                .params(status, body, key)
                .update();
    }
}
