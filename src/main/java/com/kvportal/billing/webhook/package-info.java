/**
 * The provider's signed webhook: the endpoint, the handled {@link com.kvportal.billing.webhook.WebhookEventType}s,
 * each event applied exactly once. Internal to the billing module.
 */
@NullMarked
package com.kvportal.billing.webhook;

import org.jspecify.annotations.NullMarked;
