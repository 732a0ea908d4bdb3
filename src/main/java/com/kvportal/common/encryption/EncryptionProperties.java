package com.kvportal.common.encryption;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The keys that seal secrets at rest ({@code application.yml} maps {@code KVPORTAL_ENCRYPTION_KEYS} here).
 *
 * @param keys comma-separated base64 keys of 32 bytes: the first seals, every one opens; empty: the key file beside
 *     the embedded database (generated at its first start), refused with {@code DATABASE_URL}
 */
@ConfigurationProperties("kvportal.encryption")
record EncryptionProperties(@DefaultValue("") String keys) {}
