package com.kvportal.common.database;

import com.kvportal.common.WireName;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What the row mappers and parameters of the features' explicit SQL convert: instants to and from timestamp columns,
 * and a column of {@link WireName}s to its constant.
 */
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
