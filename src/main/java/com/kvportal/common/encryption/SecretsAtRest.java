package com.kvportal.common.encryption;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The start-up step that keeps every stored secret sealed under the first key, after the migrations and before the
 * service answers: a secret an older version stored in clear is sealed, one sealed under another configured key is
 * sealed again under the first (so that a key can be dropped once every instance has started with a newer one in
 * front). All of it in one transaction, each row changed only if it still holds what was read (instances starting
 * together do the work once): a crash leaves every row as it was, and the next start does it again.
 *
 * <p>A secret sealed under a key that is not configured refuses the start, naming the key: every secret sealed under
 * it would fail at its use.
 */
@Component
@DependsOnDatabaseInitialization
class SecretsAtRest {

    private static final Logger log = LoggerFactory.getLogger(SecretsAtRest.class);

    SecretsAtRest(SecretBox box, List<EncryptedColumns> owners, JdbcClient jdbc, TransactionTemplate transactions) {
        transactions.executeWithoutResult(status -> {
            int changed = 0;
            Map<String, Integer> unreadable = new TreeMap<>();
            for (EncryptedColumns owner : owners) {
                for (SecretColumn column : owner.encryptedColumns()) {
                    for (Row row : rows(jdbc, column, box)) {
                        try {
                            changed += reseal(jdbc, box, column, row);
                        } catch (SecretBox.UnreadableSecret e) {
                            unreadable.merge(
                                    column.table() + "." + column.column() + " under key " + e.keyId(),
                                    1,
                                    Integer::sum);
                        }
                    }
                }
            }
            if (!unreadable.isEmpty()) {
                throw new EncryptionRefused(
                        "Stored secrets are sealed under keys that " + EncryptionKeys.VARIABLE + " does not hold: "
                                + unreadable + ".",
                        "Put those keys back into " + EncryptionKeys.VARIABLE + " (after the first key). "
                                + EncryptionRefused.LOST_KEY);
            }
            if (changed > 0) {
                log.info("Secrets at rest: {} stored secret(s) sealed under the key {}", changed, box.sealingKeyId());
            }
        });
    }

    /** Seals the row's value under the first key, unless it changed since it was read: the rows changed (0 or 1). */
    private static int reseal(JdbcClient jdbc, SecretBox box, SecretColumn column, Row row) {
        return box.resealed(row.value(), column, row.id())
                .map(resealed -> jdbc.sql("update " + column.table() + " set " + column.column() + " = ? where id = ?"
                                + " and " + column.column() + " = ?")
                        .params(resealed, row.id(), row.value())
                        .update())
                .orElse(0);
    }

    private record Row(Object id, String value) {}

    /** The rows whose value does not begin as a seal under the first key does (those that may need work). */
    private static List<Row> rows(JdbcClient jdbc, SecretColumn column, SecretBox box) {
        String sealed = box.sealingPrefix();
        return jdbc.sql("select id, " + column.column() + " as value from " + column.table() + " where "
                        + column.column() + " is not null and left(" + column.column() + ", ?) <> ?")
                .params(sealed.length(), sealed)
                .query((rs, n) -> new Row(rs.getObject("id"), rs.getString("value")))
                .list();
    }
}
