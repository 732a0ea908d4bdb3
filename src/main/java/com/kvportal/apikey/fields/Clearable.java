package com.kvportal.apikey.fields;

import java.util.List;
import java.util.Optional;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.std.StdDeserializer;

/**
 * How an update reads a field that null clears: left out, the field is null (the key keeps its value); sent as null,
 * it is an empty {@link Optional} (the key's value is removed); sent with a value, that value. Jackson alone reads
 * both a left-out and a null {@code Optional} as empty.
 */
final class Clearable {

    private Clearable() {}

    /** An {@code Optional<String>} field. */
    static final class Text extends StdDeserializer<Optional<String>> {
        Text() {
            super(Optional.class);
        }

        @Override
        public Optional<String> deserialize(JsonParser parser, DeserializationContext context) {
            return Optional.of(context.readValue(parser, String.class));
        }

        @Override
        public Optional<String> getNullValue(DeserializationContext context) {
            return Optional.empty();
        }

        @Override
        public Object getAbsentValue(DeserializationContext context) {
            return null;
        }
    }

    /** An {@code Optional<List<String>>} field. */
    static final class TextList extends StdDeserializer<Optional<List<String>>> {
        TextList() {
            super(Optional.class);
        }

        @Override
        public Optional<List<String>> deserialize(JsonParser parser, DeserializationContext context) {
            return Optional.of(context.readValue(
                    parser, context.getTypeFactory().constructCollectionType(List.class, String.class)));
        }

        @Override
        public Optional<List<String>> getNullValue(DeserializationContext context) {
            return Optional.empty();
        }

        @Override
        public Object getAbsentValue(DeserializationContext context) {
            return null;
        }
    }
}
