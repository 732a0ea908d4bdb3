package com.kvportal.sandbox.store;

import java.util.Arrays;
import java.util.Optional;

/** What happens when the sandbox charges a card. */
public enum CardOutcome {
    SUCCEEDED("succeeded"),
    CARD_DECLINED("card_declined");

    private final String value;

    CardOutcome(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    public static Optional<CardOutcome> parse(String value) {
        return Arrays.stream(values()).filter(o -> o.value.equals(value)).findFirst();
    }
}
