/**
 * Bean Validation constraints that the features' request records share, with the messages the API's
 * {@code validation_failed} problems carry.
 */
@NullMarked
package com.kvportal.common.validation;

import org.jspecify.annotations.NullMarked;
