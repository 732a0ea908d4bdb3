/**
 * The subscription's lifecycle: {@link com.kvportal.billing.subscription.LockedSubscription#on} is every
 * transition the provider's news makes and the domain events it raises; {@link
 * com.kvportal.billing.subscription.SubscriptionLedger} writes them; duplicates are canceled; the SQL of
 * subscriptions, plans and billing accounts. Internal to the billing module.
 */
@NullMarked
package com.kvportal.billing.subscription;

import org.jspecify.annotations.NullMarked;
