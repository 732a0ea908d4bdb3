package com.kvportal.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Storage samples as the storage backend reports them to {@code POST /api/v1/usage/storage}, with its token. */
public final class StorageSamples {

    public static final String PATH = "/api/v1/usage/storage";

    private StorageSamples() {}

    /** One sample: the project's stored bytes at that moment. */
    public static Map<String, Object> sample(String id, UUID projectId, long bytes, Instant at) {
        Map<String, Object> sample = new LinkedHashMap<>();
        sample.put("id", id);
        sample.put("project_id", projectId.toString());
        sample.put("bytes", bytes);
        sample.put("at", at.toString());
        return sample;
    }

    /** Reports one sample of the project under a fresh id, as the backend does, and checks that it is accepted. */
    public static void report(String baseUrl, UUID projectId, long bytes, Instant at) {
        reportAll(baseUrl, List.of(sample("s-" + UUID.randomUUID(), projectId, bytes, at)));
    }

    /** Reports these samples in one batch and checks that every one is accepted. */
    public static void reportAll(String baseUrl, List<Map<String, Object>> samples) {
        Api.Response response =
                Api.withKey(baseUrl, IntegrationTest.USAGE_TOKEN).post(PATH, Map.of("samples", samples));
        assertThat(response.json().get("accepted").asInt())
                .as(response.toString())
                .isEqualTo(samples.size());
    }
}
