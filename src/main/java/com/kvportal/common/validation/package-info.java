/**
 * Bean Validation constraints that the features' request records share, with the messages the API's
 * {@code validation_failed} problems carry. The API document states what they check (whether the field is required,
 * its length bounds) from the constraint itself ({@code openapi.ApiModelResolver}); a field's {@code @Schema}
 * does not repeat them.
 */
@NullMarked
package com.kvportal.common.validation;

import org.jspecify.annotations.NullMarked;
