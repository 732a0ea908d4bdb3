package com.kvportal.apikey.scanning;

import com.kvportal.common.web.CommonProblem;
import com.kvportal.common.web.ProblemException;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Checks that a leaked-key report comes from GitHub: an ECDSA P-256 / SHA-256 signature over the raw body (base64
 * DER in {@code Github-Public-Key-Signature}) by the public key named in {@code Github-Public-Key-Identifier}.
 * The keys are read once at start; a document that cannot be read stops the start.
 */
@Component
class SecretScanningSignature {

    static final String SIGNATURE_HEADER = "Github-Public-Key-Signature";
    static final String IDENTIFIER_HEADER = "Github-Public-Key-Identifier";

    private final Map<String, PublicKey> keys;

    SecretScanningSignature(SecretScanningProperties properties, JsonMapper json) {
        this.keys = parse(properties.publicKeys(), json);
    }

    boolean configured() {
        return !keys.isEmpty();
    }

    /** @throws ProblemException 400 {@code signature_invalid} unless the body is signed by a known key */
    void verify(byte[] body, @Nullable String identifier, @Nullable String signature) {
        PublicKey key = identifier == null ? null : keys.get(identifier.strip());
        if (key == null || signature == null) {
            throw invalid();
        }
        try {
            Signature ecdsa = Signature.getInstance("SHA256withECDSA");
            ecdsa.initVerify(key);
            ecdsa.update(body);
            if (!ecdsa.verify(Base64.getDecoder().decode(signature.strip()))) {
                throw invalid();
            }
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw invalid();
        }
    }

    private static ProblemException invalid() {
        return new ProblemException(
                CommonProblem.SIGNATURE_INVALID, "The report is not signed by a known GitHub secret scanning key.");
    }

    private static Map<String, PublicKey> parse(@Nullable String document, JsonMapper json) {
        Map<String, PublicKey> keys = new LinkedHashMap<>();
        if (document == null || document.isBlank()) {
            return keys;
        }
        try {
            JsonNode list = json.readTree(document).path("public_keys");
            if (!list.isArray() || list.isEmpty()) {
                throw new IllegalArgumentException("no public_keys array");
            }
            for (JsonNode entry : list) {
                String pem = entry.path("key").asString();
                String base64 =
                        pem.replaceAll("-----(BEGIN|END) PUBLIC KEY-----", "").replaceAll("\\s", "");
                PublicKey key = KeyFactory.getInstance("EC")
                        .generatePublic(
                                new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
                keys.put(entry.path("key_identifier").asString(), key);
            }
            return keys;
        } catch (RuntimeException | GeneralSecurityException e) {
            throw new IllegalStateException(
                    "SECRET_SCANNING_PUBLIC_KEYS must be GitHub's document {\"public_keys\": [{\"key_identifier\": ..., "
                            + "\"key\": \"-----BEGIN PUBLIC KEY-----...\"}]}: " + e.getMessage(),
                    e);
        }
    }
}
