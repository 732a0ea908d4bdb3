/**
 * Usage alerts: thresholds crossed and writes refused or allowed again, evaluated by every instance in turn, mailed
 * and published. Internal to the usage module.
 */
@NullMarked
package com.kvportal.usage.alerts;

import org.jspecify.annotations.NullMarked;
