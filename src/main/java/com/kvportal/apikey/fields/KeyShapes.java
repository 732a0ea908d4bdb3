package com.kvportal.apikey.fields;

import com.kvportal.common.database.Sql;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** How a {@link KeyShape} is kept in the api_keys table: its columns, read and written. */
public final class KeyShapes {

    public static final String COLUMNS = "metadata::text as metadata, external_id, enabled, allowed_ips";

    private KeyShapes() {}

    public static KeyShape read(ResultSet rs) throws SQLException {
        String metadata = rs.getString("metadata");
        Array allowed = rs.getArray("allowed_ips");
        KeyShape shape = new KeyShape(
                "{}".equals(metadata) ? java.util.Map.of() : KeyFields.metadata(metadata),
                rs.getString("external_id"),
                rs.getBoolean("enabled"),
                allowed == null ? null : AllowedIps.of(List.of((String[]) allowed.getArray())));
        return shape.equals(KeyShape.DEFAULT) ? KeyShape.DEFAULT : shape;
    }

    /** The allowed addresses as a text[] literal, or null for anywhere. */
    public static @Nullable String allowedIpsLiteral(KeyShape shape) {
        return shape.allowedIps() == null
                ? null
                : Sql.arrayLiteral(shape.allowedIps().canonical());
    }
}
