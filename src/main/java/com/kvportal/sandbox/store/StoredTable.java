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
        return single(database, "where id = ?", id);
    }

    /** The row with this id, if any, locked until commit. */
    Optional<T> locked(SandboxDatabase database, String id) {
        return single(database, "where id = ? for update", id);
    }

    /** The customer's rows that meet {@code condition}, oldest first, locked until commit. */
    List<T> lockedOfCustomer(SandboxDatabase database, String condition, String customer) {
        return list(database, "where customer = ? and " + condition + " order by created, id for update", customer);
    }

    /**
     * The rows that {@code clauses} select: what follows the table's select ({@code where}, {@code order by},
     * {@code limit}, {@code for update}), its {@code ?} bound to {@code params} in order.
     */
    List<T> list(SandboxDatabase database, String clauses, Object... params) {
        return database.sql(select + " " + clauses).params(params).query(rows).list();
    }

    /** The row that {@code clauses} select ({@link #list}), if any; more than one is an error. */
    Optional<T> single(SandboxDatabase database, String clauses, Object... params) {
        return database.sql(select + " " + clauses).params(params).query(rows).optional();
    }
}
