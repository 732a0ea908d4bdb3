package com.kvportal.common.database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.flywaydb.core.api.configuration.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applied migrations whose comments were reworded after they ran. Flyway's checksum covers every line of a
 * migration, comments too, so a database that applied the old text would refuse to start on the new one. Before
 * Flyway validates, this records the new text's checksum for exactly those versions, and only where the history
 * holds the old text's checksum: a migration changed in any other way still fails validation, as it should.
 *
 * <p>A rewording is for comments only. {@code RewordedMigrationsTest} pins each new checksum to its file, so an
 * edit that is not listed here fails the build before it can fail a start.
 */
public final class RewordedMigrations implements Callback {

    private static final Logger log = LoggerFactory.getLogger(RewordedMigrations.class);

    /** The comments of {@code version} were reworded: its text's checksum went from {@code from} to {@code to}. */
    public record Rewording(String version, int from, int to) {}

    private final List<Rewording> rewordings;

    public RewordedMigrations(List<Rewording> rewordings) {
        this.rewordings = List.copyOf(rewordings);
    }

    /** The product's migrations ({@code db/migration}) whose first comment cited a document outside the repository. */
    static RewordedMigrations product() {
        return new RewordedMigrations(List.of(
                new Rewording("90", -1494307017, 9915886),
                new Rewording("110", -395303464, -1343326547),
                new Rewording("120", 1227184557, -1919190091),
                new Rewording("160", 2101804702, 2039783474),
                new Rewording("180", 440016711, 914538720),
                new Rewording("190", 1638870546, 383281162)));
    }

    public List<Rewording> rewordings() {
        return rewordings;
    }

    @Override
    public boolean supports(Event event, Context context) {
        return event == Event.BEFORE_VALIDATE || event == Event.BEFORE_MIGRATE;
    }

    @Override
    public boolean canHandleInTransaction(Event event, Context context) {
        return true;
    }

    @Override
    public void handle(Event event, Context context) {
        Connection connection = context.getConnection();
        try {
            String history = historyTable(context.getConfiguration(), connection);
            if (!exists(connection, history)) {
                return;
            }
            for (Rewording rewording : rewordings) {
                try (PreparedStatement update = connection.prepareStatement(
                        "update " + history + " set checksum = ? where version = ? and checksum = ? and success")) {
                    update.setInt(1, rewording.to());
                    update.setString(2, rewording.version());
                    update.setInt(3, rewording.from());
                    if (update.executeUpdate() > 0) {
                        log.info(
                                "Migration V{}'s comments were reworded: recorded its new checksum in {}",
                                rewording.version(),
                                history);
                    }
                }
            }
        } catch (SQLException e) {
            throw new FlywayException("Could not record the reworded migrations' checksums", e);
        }
    }

    @Override
    public String getCallbackName() {
        return "reworded migrations";
    }

    private static String historyTable(Configuration configuration, Connection connection) throws SQLException {
        String schema = configuration.getDefaultSchema();
        if (schema == null && configuration.getSchemas().length > 0) {
            schema = configuration.getSchemas()[0];
        }
        if (schema == null) {
            schema = connection.getSchema();
        }
        return quoted(schema) + "." + quoted(configuration.getTable());
    }

    private static boolean exists(Connection connection, String table) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("select to_regclass(?) is not null")) {
            query.setString(1, table);
            try (ResultSet result = query.executeQuery()) {
                return result.next() && result.getBoolean(1);
            }
        }
    }

    private static String quoted(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
