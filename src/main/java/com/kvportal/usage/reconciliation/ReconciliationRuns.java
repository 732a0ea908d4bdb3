package com.kvportal.usage.reconciliation;

import java.time.LocalDate;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of usage_reconciliation_runs: one row a day, taken by the instance that runs that day's reconciliation. */
@Repository
@RequiredArgsConstructor
public class ReconciliationRuns {

    private final JdbcClient jdbc;

    /** Takes the day's run; false when an instance took it before. */
    boolean claim(LocalDate day) {
        return jdbc.sql("insert into usage_reconciliation_runs (day) values (?) on conflict (day) do nothing")
                        .param(day)
                        .update()
                > 0;
    }

    void finish(LocalDate day, int differences) {
        jdbc.sql("update usage_reconciliation_runs set finished_at = now(), differences = ? where day = ?")
                .params(differences, day)
                .update();
    }

    /** Gives the day's run back after a failure, so that the next check tries again. */
    void release(LocalDate day) {
        jdbc.sql("delete from usage_reconciliation_runs where day = ? and finished_at is null")
                .param(day)
                .update();
    }
}
