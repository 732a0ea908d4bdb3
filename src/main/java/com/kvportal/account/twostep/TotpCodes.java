package com.kvportal.account.twostep;

import dev.samstevens.totp.code.DefaultCodeGenerator;
import dev.samstevens.totp.code.HashingAlgorithm;
import dev.samstevens.totp.exceptions.CodeGenerationException;
import dev.samstevens.totp.exceptions.QrGenerationException;
import dev.samstevens.totp.qr.QrData;
import dev.samstevens.totp.qr.ZxingPngQrGenerator;
import dev.samstevens.totp.secret.DefaultSecretGenerator;
import dev.samstevens.totp.util.Utils;
import java.time.Clock;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * RFC 6238 as docs/mail.md, Account security, fixes it (SHA-1, 6 digits, 30 s steps, one step of drift either way), through {@code
 * dev.samstevens.totp}: secrets, {@code otpauth://} URIs with their QR code, and which time step a code belongs to, so
 * that the caller can refuse a step that was used already.
 */
@Component
@RequiredArgsConstructor
class TotpCodes {

    static final int PERIOD_SECONDS = 30;
    static final int DIGITS = 6;
    private static final Pattern CODE = Pattern.compile("\\d{6}");

    private final DefaultCodeGenerator generator = new DefaultCodeGenerator(HashingAlgorithm.SHA1, DIGITS);
    private final Clock clock;

    String newSecret() {
        return new DefaultSecretGenerator(32).generate();
    }

    String uri(String secret, String email) {
        return data(secret, email).getUri();
    }

    /** The URI as a PNG QR code in a {@code data:} URI, for an {@code <img>}. */
    String qrCode(String secret, String email) {
        try {
            ZxingPngQrGenerator png = new ZxingPngQrGenerator();
            return Utils.getDataUriForImage(png.generate(data(secret, email)), png.getImageMimeType());
        } catch (QrGenerationException e) {
            throw new IllegalStateException("QR code", e);
        }
    }

    /** The time step (now, one before or one after) whose code this is, or empty. */
    OptionalLong stepOf(String secret, @Nullable String code) {
        if (code == null || !CODE.matcher(code).matches()) {
            return OptionalLong.empty();
        }
        long now = clock.instant().getEpochSecond() / PERIOD_SECONDS;
        for (long step = now - 1; step <= now + 1; step++) {
            if (code.equals(codeAt(secret, step))) {
                return OptionalLong.of(step);
            }
        }
        return OptionalLong.empty();
    }

    String codeAt(String secret, long step) {
        try {
            return generator.generate(secret, step);
        } catch (CodeGenerationException e) {
            throw new IllegalStateException("TOTP code", e);
        }
    }

    private static QrData data(String secret, String email) {
        return new QrData.Builder()
                .label(email)
                .secret(secret)
                .issuer("kv-portal")
                .algorithm(HashingAlgorithm.SHA1)
                .digits(DIGITS)
                .period(PERIOD_SECONDS)
                .build();
    }
}
