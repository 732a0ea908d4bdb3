package com.kvportal.usage;

import static com.kvportal.support.Problems.assertFieldErrors;
import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.Concurrently;
import com.kvportal.support.IntegrationTest;
import com.kvportal.support.StorageSamples;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** {@code POST /api/v1/usage/storage}: every answer it gives. */
class ReportStorageTest extends IntegrationTest {

    static final String PATH = StorageSamples.PATH;

    @Autowired
    MeterRegistry meters;

    Api backend() {
        return Api.withKey(baseUrl(), USAGE_TOKEN);
    }

    /** A sample at a whole second, as the backend sends them. */
    static Map<String, Object> sample(String id, UUID projectId, long bytes, Instant at) {
        return StorageSamples.sample(id, projectId, bytes, at.truncatedTo(ChronoUnit.SECONDS));
    }

    /** A copy of this sample or batch with {@code field} set to {@code value}, or left out when it is null. */
    static Map<String, Object> with(Map<String, Object> body, String field, @Nullable Object value) {
        Map<String, Object> changed = new LinkedHashMap<>(body);
        if (value == null) {
            changed.remove(field);
        } else {
            changed.put(field, value);
        }
        return changed;
    }

    static Map<String, Object> batch(Object... samples) {
        return Map.of("samples", List.of(samples));
    }

    /** Reports these samples in one batch, with the backend's token. */
    Api.Response report(Object... samples) {
        return backend().post(PATH, batch(samples));
    }

    /** A 200 answer that counts this many samples accepted and this many duplicates. */
    static void assertCounted(Api.Response response, int accepted, int duplicates) {
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(response.json().get("accepted").asInt()).isEqualTo(accepted);
        assertThat(response.json().get("duplicates").asInt()).isEqualTo(duplicates);
    }

    static String id() {
        return "s-" + UUID.randomUUID();
    }

    long storedSamples(UUID projectId) {
        return count("select count(*) from usage_samples where project_id = ?", projectId);
    }

    long storedBytes(String sampleId) {
        return jdbc.sql("select bytes from usage_samples where id = ?")
                .param(sampleId)
                .query(Long.class)
                .single();
    }

    @Test
    void shouldRefuseAnUnknownFieldOfASampleOrOfTheReportAndStoreNothing() {
        Api.Account account = api().signup();
        Map<String, Object> withUnit = with(sample(id(), account.projectId(), 1000, Instant.now()), "unit", "KiB");

        Api.Response nested = report(sample(id(), account.projectId(), 1, Instant.now()), withUnit);
        Api.Response topLevel =
                backend().post(PATH, with(batch(sample(id(), account.projectId(), 1, Instant.now())), "unit", "KiB"));

        assertFieldErrors(nested, "samples[1].unit");
        assertThat(nested.json().get("errors").get(0).get("message").asString()).contains("id, project_id, bytes, at");
        assertFieldErrors(topLevel, "unit");
        assertThat(topLevel.json().get("errors").get(0).get("message").asString())
                .contains("samples");
        assertThat(storedSamples(account.projectId())).isZero();
    }

    @Test
    void shouldAcceptSamplesOfKnownProjects() {
        Api.Account account = api().signup();
        Instant now = Instant.now();

        Api.Response response = report(
                sample(id(), account.projectId(), 1000, now.minus(Duration.ofHours(1))),
                sample(id(), account.projectId(), 2000, now));

        assertCounted(response, 2, 0);
        assertThat(response.json().get("rejected").size()).isZero();
        assertThat(storedSamples(account.projectId())).isEqualTo(2);
    }

    @Test
    void shouldTakeEitherTokenOfARotation() {
        Api.Account account = api().signup();

        Api.Response response = Api.withKey(baseUrl(), ROTATED_USAGE_TOKEN)
                .post(PATH, batch(sample(id(), account.projectId(), 1, Instant.now())));

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(response.json().get("accepted").asInt()).isEqualTo(1);
    }

    @Test
    void shouldCountASampleWhoseIdCameBeforeInAnEarlierBatchOrTheSameOneAsADuplicateAndKeepTheFirst() {
        Api.Account account = api().signup();
        String earlier = id();
        String twice = id();
        report(sample(earlier, account.projectId(), 1000, Instant.now()));

        Api.Response again = report(sample(earlier, account.projectId(), 999_999, Instant.now()));
        Api.Response oneBatch = report(
                sample(twice, account.projectId(), 1, Instant.now()),
                sample(twice, account.projectId(), 2, Instant.now()));

        assertCounted(again, 0, 1);
        assertThat(storedBytes(earlier)).isEqualTo(1000);
        assertCounted(oneBatch, 1, 1);
        assertThat(storedBytes(twice)).isEqualTo(1);
    }

    @Test
    void shouldRejectASampleOfAnUnknownProjectWithProjectNotFoundAndStoreTheOthers() {
        Api.Account account = api().signup();
        String unknown = id();

        Api.Response response = report(
                sample(id(), account.projectId(), 5, Instant.now()),
                sample(unknown, UUID.randomUUID(), 5, Instant.now()));

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().get("accepted").asInt()).isEqualTo(1);
        assertThat(response.json().get("rejected").toString())
                .isEqualTo("[{\"index\":1,\"id\":\"" + unknown + "\",\"code\":\"project_not_found\"}]");
    }

    @Test
    void shouldRejectSamplesOlderThan35DaysOrMoreThan5MinutesAheadWithSampleOutOfRange() {
        Api.Account account = api().signup();
        Instant now = Instant.now();
        String tooOld = id();
        String tooNew = id();

        Api.Response response = report(
                sample(
                        tooOld,
                        account.projectId(),
                        1,
                        now.minus(Duration.ofDays(35).plusMinutes(1))),
                sample(id(), account.projectId(), 2, now.minus(Duration.ofDays(34))),
                sample(id(), account.projectId(), 3, now.plus(Duration.ofMinutes(4))),
                sample(tooNew, account.projectId(), 4, now.plus(Duration.ofMinutes(6))));

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().get("accepted").asInt()).isEqualTo(2);
        JsonNode rejected = response.json().get("rejected");
        assertThat(rejected.size()).isEqualTo(2);
        assertThat(rejected.get(0).get("index").asInt()).isZero();
        assertThat(rejected.get(0).get("id").asString()).isEqualTo(tooOld);
        assertThat(rejected.get(0).get("code").asString()).isEqualTo("sample_out_of_range");
        assertThat(rejected.get(1).get("index").asInt()).isEqualTo(3);
        assertThat(rejected.get(1).get("id").asString()).isEqualTo(tooNew);
        assertThat(rejected.get(1).get("code").asString()).isEqualTo("sample_out_of_range");
        assertThat(storedSamples(account.projectId())).isEqualTo(2);
    }

    @Test
    void shouldAnswerTheSameWhenAWholeBatchIsRetried() {
        Api.Account account = api().signup();
        Object batch = batch(
                sample(id(), account.projectId(), 10, Instant.now()),
                sample(id(), UUID.randomUUID(), 10, Instant.now()),
                sample(id(), account.projectId(), 20, Instant.now().minus(Duration.ofDays(40))),
                sample(id(), account.projectId(), 30, Instant.now()));

        Api.Response first = backend().post(PATH, batch);
        Api.Response retry = backend().post(PATH, batch);

        assertThat(first.json().get("accepted").asInt()).isEqualTo(2);
        assertCounted(retry, 0, 2);
        assertThat(retry.json().get("rejected")).isEqualTo(first.json().get("rejected"));
        assertThat(storedSamples(account.projectId())).isEqualTo(2);
    }

    @Test
    void shouldStoreEachSampleOnceWhenTheSameBatchArrivesFourTimesAtOnce() throws Exception {
        Api.Account account = api().signup();
        List<Object> samples = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            samples.add(sample(id(), account.projectId(), i, Instant.now().minusSeconds(i)));
        }
        Object batch = Map.of("samples", samples);

        List<JsonNode> answers =
                Concurrently.run(4, () -> backend().post(PATH, batch).json());

        assertThat(answers.stream().mapToInt(a -> a.get("accepted").asInt()).sum())
                .isEqualTo(200);
        assertThat(answers.stream().mapToInt(a -> a.get("duplicates").asInt()).sum())
                .isEqualTo(600);
        assertThat(storedSamples(account.projectId())).isEqualTo(200);
    }

    @Test
    void shouldAcceptABatchOfAThousandSamples() {
        Api.Account account = api().signup();
        Instant start = Instant.now().minus(Duration.ofDays(1));
        List<Object> samples = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            samples.add(sample(id(), account.projectId(), i, start.plusSeconds(60L * i)));
        }

        Api.Response response = backend().post(PATH, Map.of("samples", samples));

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(response.json().get("accepted").asInt()).isEqualTo(1000);
        assertThat(storedSamples(account.projectId())).isEqualTo(1000);
    }

    @Test
    void shouldCountSamplesByOutcome() {
        Api.Account account = api().signup();
        double accepted = counted("accepted");
        double duplicate = counted("duplicate");
        double rejected = counted("rejected");
        String id = id();

        report(
                sample(id, account.projectId(), 1, Instant.now()),
                sample(id, account.projectId(), 1, Instant.now()),
                sample(id(), UUID.randomUUID(), 1, Instant.now()));

        assertThat(counted("accepted") - accepted).isEqualTo(1);
        assertThat(counted("duplicate") - duplicate).isEqualTo(1);
        assertThat(counted("rejected") - rejected).isEqualTo(1);
    }

    double counted(String outcome) {
        return meters.get("kvportal.usage.samples")
                .tag("outcome", outcome)
                .counter()
                .count();
    }

    @Test
    void shouldRefuseAStructurallyBadBodyWithValidationFailedAndStoreNothing() {
        Api.Account account = api().signup();
        UUID project = account.projectId();
        Instant now = Instant.now();
        Map<String, Object> good = sample(id(), project, 1, now);

        Map<String, Object> negative = sample(id(), project, -1, now);
        assertFieldErrors(report(good, negative), "samples[1].bytes");
        assertFieldErrors(report(good, with(sample(id(), project, 1, now), "bytes", "1")), "samples[1].bytes");
        assertFieldErrors(report(good, with(sample(id(), project, 1, now), "bytes", 1.5)), "samples[1].bytes");
        assertFieldErrors(report(good, with(sample(id(), project, 1, now), "id", null)), "samples[1].id");
        assertFieldErrors(report(good, sample("", project, 1, now)), "samples[1].id");
        assertFieldErrors(report(good, sample("x".repeat(101), project, 1, now)), "samples[1].id");
        assertFieldErrors(
                report(good, with(sample(id(), project, 1, now), "project_id", "not-a-uuid")), "samples[1].project_id");
        assertFieldErrors(report(good, with(sample(id(), project, 1, now), "at", "yesterday")), "samples[1].at");
        assertFieldErrors(report(good, with(sample(id(), project, 1, now), "at", 1_790_000_000)), "samples[1].at");
        assertFieldErrors(report(good, "a string"), "samples[1]");
        assertFieldErrors(backend().post(PATH, Map.of()), "samples");
        assertFieldErrors(backend().post(PATH, Map.of("samples", "none")), "samples");
        assertFieldErrors(backend().post(PATH, Map.of("samples", List.of())), "samples");
        assertFieldErrors(backend().post(PATH, List.of(good)), "body");
        List<Object> tooMany = new ArrayList<>();
        for (int i = 0; i < 1001; i++) {
            tooMany.add(sample(id(), project, 1, now));
        }
        assertFieldErrors(backend().post(PATH, Map.of("samples", tooMany)), "samples");

        assertThat(storedSamples(project)).isZero();
    }

    @Test
    void shouldRefuseMalformedJsonWith400AndAnotherContentTypeWith415() {
        assertProblem(backend().send("POST", PATH, "{\"samples\": [", "application/json"), 400, "malformed_json");
        assertThat(backend()
                        .send("POST", PATH, "samples=1", "application/x-www-form-urlencoded")
                        .status())
                .isEqualTo(415);
    }

    @Test
    void shouldRefuseARequestWithoutTheTokenWith401Unauthenticated() {
        Api.Account account = api().signup();
        Object body = batch(sample(id(), account.projectId(), 1, Instant.now()));

        assertUnauthenticated(api().post(PATH, body));
        assertUnauthenticated(Api.withKey(baseUrl(), "not-the-token").post(PATH, body));
        assertUnauthenticated(Api.withKey(baseUrl(), USAGE_TOKEN + "x").post(PATH, body));
        assertUnauthenticated(api().sendRaw(
                        "POST",
                        PATH,
                        HttpRequest.BodyPublishers.ofString(Api.JSON.writeValueAsString(body)),
                        Map.of("Content-Type", "application/json", "Authorization", "Basic " + USAGE_TOKEN)));
        assertThat(storedSamples(account.projectId())).isZero();
    }

    @Test
    void shouldRefuseASessionOrAnApiKeyWith401Unauthenticated() {
        Api session = api();
        Api.Account account = session.signup();
        String key = session.createKey("admin key", "admin", "write");
        Object body = batch(sample(id(), account.projectId(), 1, Instant.now()));

        assertUnauthenticated(session.post(PATH, body));
        assertUnauthenticated(Api.withKey(baseUrl(), key).post(PATH, body));
        assertThat(storedSamples(account.projectId())).isZero();
    }

    @Test
    void shouldAnswer401BeforeLookingAtTheBody() {
        assertUnauthenticated(api().send("POST", PATH, "{not json", "application/json"));
    }

    @Test
    void shouldAnswer405ToAnotherMethod() {
        assertProblem(backend().get(PATH), 405, "method_not_allowed");
    }

    static void assertUnauthenticated(Api.Response response) {
        assertProblem(response, 401, "unauthenticated");
        assertThat(response.header("WWW-Authenticate")).isEqualTo("Bearer");
    }
}
