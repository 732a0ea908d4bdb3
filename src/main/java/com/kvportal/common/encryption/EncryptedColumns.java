package com.kvportal.common.encryption;

import java.util.List;

/**
 * A bean whose tables hold sealed secrets: {@link SecretsAtRest} brings their rows under the current key at every
 * start (sealing what an older version stored in clear, re-sealing what an older key sealed).
 */
public interface EncryptedColumns {

    List<SecretColumn> encryptedColumns();
}
