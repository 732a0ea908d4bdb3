package com.kvportal.common.validation;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import jakarta.validation.ValidatorFactory;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The shared constraints as plain rules: one message per field, saying which rule failed. */
class SharedConstraintsTest {

    record Named(@DisplayName(max = 5) @Nullable String name) {}

    record OptionallyNamed(@DisplayName(max = 5, required = false) @Nullable String name) {}

    record Person(@EmailAddress @Nullable String email) {}

    record Token(@Required @Nullable String token) {}

    private static final ValidatorFactory FACTORY = Validation.buildDefaultValidatorFactory();
    private static final Validator VALIDATOR = FACTORY.getValidator();

    @AfterAll
    static void close() {
        FACTORY.close();
    }

    private static List<String> messages(Object request) {
        return VALIDATOR.validate(request).stream()
                .map(ConstraintViolation::getMessage)
                .toList();
    }

    @Test
    void aDisplayNameIsRequiredAtMostMaxCharactersOnceTrimmedAndFreeOfControlCharacters() {
        assertThat(messages(new Named(null))).containsExactly("is required");
        assertThat(messages(new Named(" \t "))).containsExactly("is required");
        assertThat(messages(new Named("abcdef"))).containsExactly("must be at most 5 characters");
        assertThat(messages(new Named("a\u0007b"))).containsExactly("must not contain control characters");
        assertThat(messages(new Named("  abcde  "))).isEmpty();
        // characters as a person counts them: five emoji are five, not ten UTF-16 units
        assertThat(messages(new Named("😀😀😀😀😀"))).isEmpty();
    }

    @Test
    void aDisplayNameHoldsNoInvisibleCharacterNorBidirectionalControl() {
        for (int c : new int[] {
            0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200B, 0x200C, 0x200D, 0x2060,
            0xFEFF
        }) {
            assertThat(messages(new Named("a" + Character.toString(c) + "b")))
                    .as("U+%04X", c)
                    .containsExactly(ReadableText.HIDDEN_CHARACTERS);
        }
        // letters of right-to-left scripts and accents are letters as typed
        assertThat(messages(new Named("שלום"))).isEmpty();
        assertThat(messages(new Named("café"))).isEmpty();
    }

    @Test
    void anEmailAddressHasAnAsciiLocalPartAndMayHaveAnInternationalizedDomain() {
        assertThat(messages(new Person("ünï@example.com")))
                .containsExactly("must have only ASCII letters, digits and punctuation before the @ (the domain may"
                        + " hold other letters, e.g. ada@exämple.com)");
        assertThat(messages(new Person("ada@exämple.com"))).isEmpty();
        assertThat(messages(new Person("ada@例え.jp"))).isEmpty();
        assertThat(Addresses.ascii("ada@exämple.com")).contains("ada@xn--exmple-cua.com");
        assertThat(Addresses.forSending("ada@EXÄMPLE.com")).isEqualTo("ada@xn--exmple-cua.com");
        assertThat(Addresses.forSending("ada@example.com")).isEqualTo("ada@example.com");
        // a domain label over 63 characters has no ASCII form
        assertThat(messages(new Person("ada@" + "ä".repeat(64) + ".com")))
                .containsExactly("must be a valid email address of at most 254 characters");
    }

    @Test
    void anOptionalDisplayNameMayBeAbsentButNotBlank() {
        assertThat(messages(new OptionallyNamed(null))).isEmpty();
        assertThat(messages(new OptionallyNamed(""))).containsExactly("is required");
        assertThat(messages(new OptionallyNamed("abcdef"))).containsExactly("must be at most 5 characters");
    }

    @Test
    void aRequiredFieldAnswersIsRequiredWhenAbsentAndNothingElse() {
        assertThat(messages(new Token(null))).containsExactly("is required");
        assertThat(messages(new Token(""))).isEmpty();
    }

    @Test
    void anEmailAddressIsRequiredAndWellFormedWithinTwoHundredFiftyFourCharacters() {
        String invalid = "must be a valid email address of at most 254 characters";
        assertThat(messages(new Person(null))).containsExactly("is required");
        assertThat(messages(new Person("   "))).containsExactly("is required");
        for (String email : List.of("no-at-sign", "two@@example.com", "a@b", "spaces in@example.com", "@x.com")) {
            assertThat(messages(new Person(email))).as(email).containsExactly(invalid);
        }
        assertThat(messages(new Person("a".repeat(243) + "@example.com"))).containsExactly(invalid);
        assertThat(messages(new Person("  someone@example.com "))).isEmpty();
    }
}
