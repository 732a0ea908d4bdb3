-- The sandbox's own secret key is kept sealed (AES-256-GCM, com.kvportal.common.encryption.SecretBox): the column
-- holds "enc:" and the base64 of the ciphertext, no longer the key's own shape. A key an older version kept in clear
-- is sealed at the next start (SandboxKey).
alter table sandbox.sandbox_api_key drop constraint if exists sandbox_api_key_key_check;
