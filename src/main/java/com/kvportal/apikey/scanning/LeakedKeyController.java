package com.kvportal.apikey.scanning;

import com.kvportal.apikey.ApiKeys;
import com.kvportal.common.web.CommonProblem;
import com.kvportal.common.web.FieldErrors;
import com.kvportal.common.web.ProblemException;
import com.kvportal.common.web.Problems;
import com.kvportal.openapi.JsonBody;
import com.kvportal.security.ApiContract;
import com.kvportal.security.Credential;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * GitHub's secret scanning partner endpoint: GitHub posts the tokens of our format it found in public, signed with
 * its key; each one that is a live key is revoked at once, and the answer labels every token.
 */
@RestController
@Tag(
        name = "Secret scanning",
        description = "GitHub secret scanning reports kv_ keys found in public; each live one is revoked at once.")
@RequiredArgsConstructor
class LeakedKeyController {

    static final String PATH = "/api/v1/security/leaked-keys";

    private final SecretScanningSignature signature;
    private final ApiKeys apiKeys;
    private final JsonMapper json;

    @Schema(name = "LeakedKeyVerdict")
    record Verdict(
            @Schema(description = "SHA-256 of the token, hex.") String tokenHash,
            String tokenType,
            @Schema(allowableValues = {"true_positive", "false_positive"}) String label) {}

    @Schema(name = "LeakedKeyReport")
    record ReportDoc(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String token,
            String type,
            @Schema(description = "Where it was found.") String url,
            String source) {}

    @JsonBody(value = ReportDoc.class, list = true)
    @ApiContract(credentials = Credential.GITHUB_SIGNATURE)
    @CommonProblem.Codes(CommonProblem.NOT_FOUND)
    @PostMapping(path = PATH, consumes = MediaType.APPLICATION_JSON_VALUE)
    List<Verdict> reportLeakedKeys(
            @RequestBody(required = false) @Parameter(hidden = true) byte @Nullable [] body,
            @RequestHeader(name = SecretScanningSignature.IDENTIFIER_HEADER, required = false)
                    @Parameter(description = "The key_identifier of GitHub's public key that signed the body.")
                    @Nullable
                    String identifier,
            @RequestHeader(name = SecretScanningSignature.SIGNATURE_HEADER, required = false)
                    @Parameter(hidden = true)
                    @Nullable
                    String signed) {
        if (!signature.configured()) {
            throw new ProblemException(CommonProblem.NOT_FOUND);
        }
        byte[] raw = body == null ? new byte[0] : body;
        signature.verify(raw, identifier, signed);
        List<Verdict> verdicts = new ArrayList<>();
        for (JsonNode report : reports(raw)) {
            String token = report.get("token").asString();
            String type = text(report, "type");
            ApiKeys.LeakVerdict verdict =
                    apiKeys.revokeLeaked(token, type, text(report, "url"), text(report, "source"));
            verdicts.add(new Verdict(sha256Hex(token), type, verdict.name().toLowerCase(Locale.ROOT)));
        }
        return verdicts;
    }

    /** A signed body is GitHub's: still, anything but an array of objects with a string token is refused. */
    private List<JsonNode> reports(byte[] raw) {
        JsonNode root;
        try {
            root = json.readTree(new String(raw, StandardCharsets.UTF_8));
        } catch (JacksonException e) {
            throw new ProblemException(Problems.malformedJson());
        }
        FieldErrors errors = new FieldErrors();
        List<JsonNode> reports = new ArrayList<>();
        if (root == null || !root.isArray()) {
            errors.add("body", "must be an array of {token, type, url, source}");
        } else {
            for (int i = 0; i < root.size(); i++) {
                JsonNode report = root.get(i);
                if (!report.isObject() || !report.path("token").isString()) {
                    errors.add("[" + i + "].token", "is required and must be a string");
                } else {
                    reports.add(report);
                }
            }
        }
        errors.throwIfAny();
        return reports;
    }

    private static String text(JsonNode report, String field) {
        JsonNode value = report.path(field);
        return value.isString() ? value.asString() : "";
    }

    private static String sha256Hex(String token) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JRE", e);
        }
    }
}
