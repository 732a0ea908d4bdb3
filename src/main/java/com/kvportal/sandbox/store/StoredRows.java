package com.kvportal.sandbox.store;

import com.kvportal.sandbox.SandboxDatabase;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.postgresql.util.PGobject;
import org.springframework.core.convert.support.DefaultConversionService;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.SimplePropertyRowMapper;
import org.springframework.jdbc.core.namedparam.SimplePropertySqlParameterSource;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * How the sandbox's records meet their rows: a component is the column of its name ({@code paymentStatus}:
 * {@code payment_status}, a column of another name is aliased in the select), a map is JSON ({@code jsonb}), a
 * card outcome is its value. A list is written as JSON too (a schedule's phases; {@link SandboxSchedules} reads it).
 */
public final class StoredRows {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<LinkedHashMap<String, String>> STRING_MAP = new TypeReference<>() {};
    private static final DefaultConversionService READING = new DefaultConversionService();

    static {
        READING.addConverter(PGobject.class, Map.class, json -> JSON.readValue(json.getValue(), STRING_MAP));
        READING.addConverter(String.class, CardOutcome.class, value -> CardOutcome.parse(value)
                .orElseThrow());
    }

    private StoredRows() {}

    /** Reads a row into the record's canonical constructor. */
    public static <T extends Record> RowMapper<T> reading(Class<T> record) {
        return new SimplePropertyRowMapper<>(record, READING);
    }

    /**
     * Runs an insert or update whose named parameters are the record's components ({@link #columns}).
     *
     * @return the number of rows it changed
     */
    public static int write(SandboxDatabase database, String sql, Record record) {
        return database.sql(sql).paramSource(columns(record)).update();
    }

    /** The record's components as the named parameters of its columns ({@code :paymentStatus}). */
    public static SqlParameterSource columns(Record record) {
        return new SimplePropertySqlParameterSource(record) {
            @Override
            public @Nullable Object getValue(String name) {
                Object value = super.getValue(name);
                if (value instanceof Map<?, ?> || value instanceof List<?>) {
                    return JSON.writeValueAsString(value);
                }
                return value instanceof CardOutcome card ? card.value() : value;
            }
        };
    }
}
