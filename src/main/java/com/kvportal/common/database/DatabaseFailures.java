package com.kvportal.common.database;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * Tells a database that is away (stopped, restarting, unreachable, out of connections) from a failure of the
 * request itself, so that the former answers 503 {@code database_unavailable} with {@code Retry-After}, never 500.
 */
public final class DatabaseFailures {

    /** The seconds a client is asked to wait: the pool reconnects as soon as the server is back. */
    public static final int RETRY_AFTER_SECONDS = 2;

    private DatabaseFailures() {}

    /** Whether the failure, or any of its causes, says that the database cannot be reached or is shutting down. */
    public static boolean isUnavailable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof CannotGetJdbcConnectionException
                    || t instanceof CannotCreateTransactionException
                    || t instanceof DataAccessResourceFailureException
                    || t instanceof SQLTransientConnectionException
                    || t instanceof SQLNonTransientConnectionException
                    || t instanceof SQLRecoverableException) {
                return true;
            }
            if (t instanceof SQLException sql && unavailableState(sql.getSQLState())) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /**
     * SQLSTATE class 08 (connection exception), 57P01..57P03 (admin or crash shutdown, cannot connect now), 53300
     * (too many connections).
     */
    private static boolean unavailableState(String state) {
        return state != null
                && (state.startsWith("08")
                        || state.equals("57P01")
                        || state.equals("57P02")
                        || state.equals("57P03")
                        || state.equals("53300"));
    }
}
