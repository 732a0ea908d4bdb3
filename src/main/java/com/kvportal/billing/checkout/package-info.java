/**
 * The hosted checkout: starting one, its one completion (success callback or webhook), the organization's
 * provider customer. Internal to the billing module.
 */
@NullMarked
package com.kvportal.billing.checkout;

import org.jspecify.annotations.NullMarked;
