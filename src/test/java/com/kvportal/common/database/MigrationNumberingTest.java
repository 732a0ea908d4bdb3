package com.kvportal.common.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.flywaydb.core.api.MigrationVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Migrations are numbered after the highest version ever taken, never into a gap: a database that has applied V120
 * refuses a V80 that arrives later (Flyway runs in order). {@code src/test/resources/db/migrations.lock} lists the
 * versions in the order they were taken; every migration file must be listed there, and no version may be listed
 * after a higher one.
 */
class MigrationNumberingTest {

    private static final Path MIGRATIONS = Path.of("src", "main", "resources", "db", "migration");
    private static final Path LOCK = Path.of("src", "test", "resources", "db", "migrations.lock");

    private static final Pattern VERSIONED = Pattern.compile("V(\\d+(?:[._]\\d+)*)__.+\\.sql");
    private static final Pattern LISTED = Pattern.compile("V(\\d+(?:[._]\\d+)*)");
    private static final Pattern REPEATABLE = Pattern.compile("R__.+\\.sql");

    @Test
    void shouldListEveryMigrationInTheLockAfterEveryLowerVersion() throws IOException {
        List<String> files;
        try (Stream<Path> listing = Files.list(MIGRATIONS)) {
            files = listing.map(file -> file.getFileName().toString()).toList();
        }

        assertThat(files).isNotEmpty();
        assertThat(problems(Files.readAllLines(LOCK), files)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            # what it shows                                        | lock               | files                                         | problem, or none
            a new version appended after the highest is taken       | V1 V10 V20 V30     | V1__a.sql V10__b.sql V20__c.sql V30__d.sql     | none
            a version listed without its file is taken, not a gap   | V1 V10 V20 V30     | V1__a.sql V10__b.sql V30__d.sql                | none
            dotted and underscored versions compare as numbers      | V1 V1.1 V2 V10     | V1__a.sql V1_1__b.sql V2__c.sql V10__d.sql     | none
            a repeatable migration has no version to take           | V1                 | V1__a.sql R__views.sql                         | none
            a file in a gap, not listed                             | V1 V10 V20         | V1__a.sql V10__b.sql V5__gap.sql V20__c.sql    | V5__gap.sql is not in migrations.lock
            a file in a gap, listed at the end                      | V1 V10 V20 V5      | V1__a.sql V5__gap.sql V10__b.sql V20__c.sql    | V5 is listed after V20
            a version taken twice in the lock                       | V1 V10 V10         | V1__a.sql V10__b.sql                          | V10 is listed after V10
            two files of one version                                | V1 V10             | V1__a.sql V10__b.sql V10__c.sql               | V10__c.sql has the version of V10__b.sql
            a lock line that is no version                          | V1 110             | V1__a.sql                                     | 110 in migrations.lock is no version
            a name Flyway would skip without a word                 | V1 V10             | V1__a.sql V10_b.sql                           | V10_b.sql is no Flyway migration name
            """)
    void shouldNameWhatBreaksTheNumbering(String what, String lock, String files, String problem) {
        List<String> found = problems(List.of(lock.split(" ")), List.of(files.split(" ")));

        if (problem.equals("none")) {
            assertThat(found).isEmpty();
        } else {
            assertThat(found).singleElement().asString().startsWith(problem);
        }
    }

    /** What breaks the numbering rule, one sentence each; empty when nothing does. */
    static List<String> problems(List<String> lockLines, List<String> fileNames) {
        List<String> problems = new ArrayList<>();
        Set<MigrationVersion> listed = new LinkedHashSet<>();
        MigrationVersion highest = MigrationVersion.EMPTY;
        for (String line : lockLines) {
            String entry = line.strip();
            if (entry.isEmpty() || entry.startsWith("#")) {
                continue;
            }
            Matcher taken = LISTED.matcher(entry);
            if (!taken.matches()) {
                problems.add(entry + " in migrations.lock is no version (V<version>)");
                continue;
            }
            MigrationVersion version = MigrationVersion.fromVersion(taken.group(1));
            if (version.compareTo(highest) <= 0) {
                problems.add("%s is listed after V%s: a new version goes above every version taken, never into a gap"
                        .formatted(entry, highest));
            }
            highest = version.compareTo(highest) > 0 ? version : highest;
            listed.add(version);
        }
        Map<MigrationVersion, String> files = new HashMap<>();
        for (String name : fileNames.stream().sorted().toList()) {
            Matcher versioned = VERSIONED.matcher(name);
            if (!versioned.matches()) {
                if (!REPEATABLE.matcher(name).matches()) {
                    problems.add(name + " is no Flyway migration name (V<version>__<description>.sql): it would be"
                            + " skipped without a word");
                }
                continue;
            }
            MigrationVersion version = MigrationVersion.fromVersion(versioned.group(1));
            String other = files.putIfAbsent(version, name);
            if (other != null) {
                problems.add("%s has the version of %s".formatted(name, other));
            } else if (!listed.contains(version)) {
                problems.add("%s is not in migrations.lock: take a version above V%s and append it there"
                        .formatted(name, highest));
            }
        }
        return problems;
    }
}
