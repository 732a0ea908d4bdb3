package com.kvportal.usage;

import static com.kvportal.support.Problems.assertFieldErrors;
import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.SignedInTest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** {@code GET/PUT /api/v1/usage/limits}: every answer, and that a refused PUT changes nothing. */
class UsageLimitsTest extends SignedInTest {

    static final String PATH = "/api/v1/usage/limits";
    static final String DEFAULTS =
            "{\"alert_thresholds_percent\":[75,90,100],\"storage_cap_bytes\":null,\"overage_cap_cents\":null}";

    static Map<String, Object> limits(Object thresholds, Object storageCap, Object overageCap) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("alert_thresholds_percent", thresholds);
        body.put("storage_cap_bytes", storageCap);
        body.put("overage_cap_cents", overageCap);
        return body;
    }

    String current() {
        Api.Response response = session.get(PATH);
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json().toString();
    }

    @Test
    void shouldAnswerTheDefaultsBeforeAnyLimitIsSet() {
        assertThat(current()).isEqualTo(DEFAULTS);
    }

    @Test
    void shouldReplaceTheLimitsAndAnswerThemSortedThenKeepThem() {
        Api.Response put = session.put(PATH, limits(List.of(90, 50), 5_000_000_000L, null));

        assertThat(put.status()).as(put.toString()).isEqualTo(200);
        String expected =
                "{\"alert_thresholds_percent\":[50,90],\"storage_cap_bytes\":5000000000,\"overage_cap_cents\":null}";
        assertThat(put.json().toString()).isEqualTo(expected);
        assertThat(current()).isEqualTo(expected);
    }

    @Test
    void shouldGiveAnOmittedFieldItsDefaultAndTakeNoThresholdsAtAll() {
        session.put(PATH, limits(List.of(10), 7L, null));

        Api.Response emptied = session.put(PATH, Map.of());
        assertThat(emptied.status()).as(emptied.toString()).isEqualTo(200);
        assertThat(current()).isEqualTo(DEFAULTS);

        Api.Response none = session.put(PATH, Map.of("alert_thresholds_percent", List.of(), "storage_cap_bytes", 0));
        assertThat(none.status()).as(none.toString()).isEqualTo(200);
        assertThat(current())
                .isEqualTo("{\"alert_thresholds_percent\":[],\"storage_cap_bytes\":0,\"overage_cap_cents\":null}");
    }

    @Test
    void shouldRefuseEachBadFieldNamingItAndChangeNothing() {
        session.put(PATH, limits(List.of(80), 1000L, null));
        String before = current();
        List<Object[]> cases = new ArrayList<>();
        cases.add(new Object[] {Map.of("alert_thresholds_percent", "75"), "alert_thresholds_percent"});
        cases.add(
                new Object[] {Map.of("alert_thresholds_percent", List.of(1, 2, 3, 4, 5, 6)), "alert_thresholds_percent"
                });
        cases.add(new Object[] {Map.of("alert_thresholds_percent", List.of(0)), "alert_thresholds_percent"});
        cases.add(new Object[] {Map.of("alert_thresholds_percent", List.of(101)), "alert_thresholds_percent"});
        cases.add(new Object[] {Map.of("alert_thresholds_percent", List.of(50, 50)), "alert_thresholds_percent"});
        cases.add(new Object[] {Map.of("alert_thresholds_percent", List.of(75.5)), "alert_thresholds_percent"});
        cases.add(new Object[] {Map.of("alert_thresholds_percent", List.of("75")), "alert_thresholds_percent"});
        cases.add(new Object[] {Map.of("storage_cap_bytes", -1), "storage_cap_bytes"});
        cases.add(new Object[] {Map.of("storage_cap_bytes", "1000"), "storage_cap_bytes"});
        cases.add(new Object[] {Map.of("storage_cap_bytes", 1.5), "storage_cap_bytes"});
        cases.add(new Object[] {
            Map.of("storage_cap_bytes", new java.math.BigInteger("99999999999999999999")), "storage_cap_bytes"
        });
        cases.add(new Object[] {Map.of("overage_cap_cents", -1), "overage_cap_cents"});
        cases.add(new Object[] {Map.of("overage_cap_cents", true), "overage_cap_cents"});
        cases.add(new Object[] {Map.of("storage_cap", 1000), "storage_cap"});
        cases.add(new Object[] {List.of(1, 2), "body"});
        for (Object[] c : cases) {
            assertFieldErrors(session.put(PATH, c[0]), (String) c[1]);
        }
        // two bad fields at once: both named
        assertFieldErrors(
                session.put(PATH, Map.of("storage_cap_bytes", -5, "overage_cap_cents", -5)),
                "storage_cap_bytes",
                "overage_cap_cents");
        assertProblem(session.send("PUT", PATH, "{\"storage_cap_bytes\":", "application/json"), 400, "malformed_json");
        assertProblem(session.send("PUT", PATH, "storage_cap_bytes=1", "text/plain"), 415, "unsupported_media_type");

        assertThat(current()).isEqualTo(before);
    }

    @Test
    void shouldRefuseAnOverageCapOnAPlanWithoutOverageAndChangeNothing() {
        session.put(PATH, limits(List.of(80), 1000L, null));
        String before = current();

        assertProblem(session.put(PATH, limits(List.of(80), 1000L, 0)), 400, "not_on_this_plan");
        assertProblem(session.put(PATH, Map.of("overage_cap_cents", 5000)), 400, "not_on_this_plan");

        assertThat(current()).isEqualTo(before);
    }

    @Test
    void shouldTakeAnOverageCapOnPro() {
        Subscribe.pro(session, api());

        Api.Response put = session.put(PATH, Map.of("overage_cap_cents", 5000));

        assertThat(put.status()).as(put.toString()).isEqualTo(200);
        assertThat(current())
                .isEqualTo("{\"alert_thresholds_percent\":[75,90,100],\"storage_cap_bytes\":null,"
                        + "\"overage_cap_cents\":5000}");
    }

    @Test
    void shouldNeedAPortalCredential() {
        assertProblem(api().get(PATH), 401, "unauthenticated");
        assertProblem(api().put(PATH, Map.of()), 401, "unauthenticated");
        Api reader = Api.withKey(baseUrl(), session.createKey("reader", "read", "write"));
        assertProblem(reader.get(PATH), 403, "insufficient_permissions");
        assertProblem(reader.put(PATH, Map.of("storage_cap_bytes", 1)), 403, "insufficient_permissions");
        assertProblem(session.withoutCsrfEcho().put(PATH, Map.of("storage_cap_bytes", 1)), 403, "csrf_failed");
        session.withCsrfEcho();
        assertThat(current()).isEqualTo(DEFAULTS);

        Api admin = Api.withKey(baseUrl(), session.createKey("admin", "admin"));
        Api.Response put = admin.put(PATH, Map.of("storage_cap_bytes", 1));
        assertThat(put.status()).as(put.toString()).isEqualTo(200);
        assertThat(admin.get(PATH).json().get("storage_cap_bytes").asLong()).isEqualTo(1);
    }

    @Test
    void shouldWriteAnAuditLineWithTheOldAndTheNewLimits() {
        session.put(PATH, limits(List.of(50), 123L, null));

        List<JsonNode> lines = new ArrayList<>();
        session.get("/api/v1/audit-events?limit=200").json().get("events").forEach(event -> {
            if (event.get("action").asString().equals("usage.limits_updated")) {
                lines.add(event);
            }
        });

        assertThat(lines).hasSize(1);
        JsonNode line = lines.get(0);
        assertThat(line.get("actor").get("label").asString()).isEqualTo(account.email());
        assertThat(line.get("details").get("previous")).isEqualTo(Api.JSON.readTree(DEFAULTS));
        assertThat(line.get("details").get("limits"))
                .isEqualTo(Api.JSON.readTree(
                        "{\"alert_thresholds_percent\":[50],\"storage_cap_bytes\":123,\"overage_cap_cents\":null}"));
    }
}
