package com.kvportal.sandbox.invoice;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The sandbox's documented test rates of automatic tax, by the country of the customer's billing address: Germany
 * 19 %, the United Kingdom 20 %, every other country 0 %. Countries are ISO 3166-1 alpha-2 codes.
 */
public final class SandboxTaxRates {

    private static final Map<String, BigDecimal> RATES =
            Map.of("DE", BigDecimal.valueOf(19), "GB", BigDecimal.valueOf(20));

    private static final Set<String> COUNTRIES = Set.of(Locale.getISOCountries());

    private SandboxTaxRates() {}

    /** The rate in percent of a country's code. */
    public static BigDecimal percent(String country) {
        return RATES.getOrDefault(country, BigDecimal.ZERO);
    }

    /** The country's code in capitals when {@code text} is an assigned ISO 3166-1 alpha-2 code (any case). */
    public static Optional<String> country(String text) {
        String code = text.strip().toUpperCase(Locale.ROOT);
        return COUNTRIES.contains(code) ? Optional.of(code) : Optional.empty();
    }
}
