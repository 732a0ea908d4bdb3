package com.kvportal.account.twostep;

import io.swagger.v3.oas.annotations.media.Schema;

public record Setup(
        @Schema(description = "The shared secret, base32.") String secret,
        @Schema(description = "The otpauth:// URI an authenticator app reads.") String otpauthUri,
        @Schema(description = "The URI as a QR code, a data: URI of a PNG.") String qrCode) {}
