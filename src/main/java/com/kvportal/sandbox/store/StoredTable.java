package com.kvportal.sandbox.store;

import com.kvportal.sandbox.SandboxDatabase;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.RowMapper;

/**
 * A table of the sandbox's objects: the select of its rows and how a row reads into its record, with the reads by
 * id that every table has.
 */
record StoredTable<T>(String select, RowMapper<T> rows) {

    /** A table whose rows read into the record's canonical constructor ({@link StoredRows}). */
    static <T extends Record> StoredTable<T> of(String select, Class<T> record) {
        return new StoredTable<>(select, StoredRows.reading(record));
    }

    /** The row with this id, if any. */
    Optional<T> one(SandboxDatabase database, String id) {
        return byId(database, id, "");
    }

    /** The row with this id, if any, locked until commit. */
    Optional<T> locked(SandboxDatabase database, String id) {
        return byId(database, id, " for update");
    }

    /** The customer's rows that meet {@code condition}, oldest first, locked until commit. */
    List<T> lockedOfCustomer(SandboxDatabase database, String condition, String customer) {
        return database.sql(select + " where customer = ? and " + condition + " order by created, id for update")
                .param(customer)
                .query(rows)
                .list();
    }

    private Optional<T> byId(SandboxDatabase database, String id, String lock) {
        return database.sql(select + " where id = ?" + lock)
                .param(id)
                .query(rows)
                .optional();
    }
}
