package com.kvportal.billing.subscription;

import com.kvportal.billing.WireName;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** Conversions between the records' instants and wire names and the database's columns. */
public final class Sql {

    private Sql() {}

    public static @Nullable Timestamp timestamp(@Nullable Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }

    public static Instant instant(ResultSet rs, String column) throws SQLException {
        return rs.getTimestamp(column).toInstant();
    }

    public static @Nullable Instant nullableInstant(ResultSet rs, String column) throws SQLException {
        Timestamp value = rs.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }

    /** The column's wire name as a constant of {@code type}; a name the type does not know is a broken row. */
    public static <E extends Enum<E> & WireName> E wire(ResultSet rs, String column, Class<E> type)
            throws SQLException {
        String value = rs.getString(column);
        return WireName.of(type, value)
                .orElseThrow(() -> new IllegalStateException(
                        "unknown " + type.getSimpleName() + " '" + value + "' in column " + column));
    }
}
