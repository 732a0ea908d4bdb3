/**
 * The provider's signed webhook: the endpoint, the handled {@link com.kvportal.billing.providerevents.ProviderEventType}s,
 * each event applied exactly once. Internal to the billing module.
 */
@NullMarked
package com.kvportal.billing.providerevents;

import org.jspecify.annotations.NullMarked;
