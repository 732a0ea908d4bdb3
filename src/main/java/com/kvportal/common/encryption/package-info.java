/**
 * Secrets at rest: what the service must read back (two-step login secrets, webhook signing secrets, the payment
 * sandbox's key) is stored sealed with AES-256-GCM under keys kept outside the database ({@code
 * KVPORTAL_ENCRYPTION_KEYS}, or the generated {@code ./data/encryption.key} beside the embedded database).
 */
@NullMarked
package com.kvportal.common.encryption;

import org.jspecify.annotations.NullMarked;
