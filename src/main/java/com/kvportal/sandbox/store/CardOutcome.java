package com.kvportal.sandbox.store;

import java.util.Arrays;
import java.util.Optional;
import lombok.RequiredArgsConstructor;

/** What happens when the sandbox charges a card. */
@RequiredArgsConstructor
public enum CardOutcome {
    SUCCEEDED("succeeded"),
    CARD_DECLINED("card_declined");

    private final String value;

    /** Its name in the sandbox's API, pages and rows. */
    public String value() {
        return value;
    }

    public static Optional<CardOutcome> parse(String value) {
        return Arrays.stream(values()).filter(o -> o.value.equals(value)).findFirst();
    }
}
