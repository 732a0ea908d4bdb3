package com.kvportal.common.database;

import com.kvportal.common.WireName;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * What the row mappers and parameters of the features' explicit SQL convert: instants to and from timestamp columns,
 * a column of {@link WireName}s to its constant, and lists to array literals.
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

    /**
     * The values as a PostgreSQL array literal, for {@code ?::text[]} or {@code ?::integer[]}: unquoted, so only for
     * values that need no quoting (numbers, words of a closed set such as permissions or event types).
     */
    public static String arrayLiteral(List<?> values) {
        return "{" + values.stream().map(String::valueOf).collect(Collectors.joining(",")) + "}";
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
