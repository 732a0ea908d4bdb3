package com.kvportal.openapi;

import com.kvportal.common.web.PageCursor;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.core.annotation.AliasFor;

/**
 * The documentation of the two query parameters of a list paged newest first ({@link PageCursor}), put beside each one's {@code @RequestParam(required = false)}.
 */
public final class Paged {

    private Paged() {}

    /** {@code limit}: the page size, 1 to {@link PageCursor#MAX_LIMIT}, {@link PageCursor#DEFAULT_LIMIT} when absent. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.PARAMETER)
    @Parameter(
            schema =
                    @Schema(
                            type = "integer",
                            minimum = "1",
                            maximum = "" + PageCursor.MAX_LIMIT,
                            defaultValue = "" + PageCursor.DEFAULT_LIMIT))
    public @interface Limit {

        /** What a page holds, e.g. "Events per page.". */
        @AliasFor(annotation = Parameter.class, attribute = "description")
        String value();
    }

    /** {@code cursor}: the previous page's {@code next_cursor}. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.PARAMETER)
    @Parameter(description = "The previous page's next_cursor; opaque.")
    public @interface Cursor {}
}
