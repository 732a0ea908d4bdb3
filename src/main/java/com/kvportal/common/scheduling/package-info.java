/**
 * What the service's background work shares: its daemon threads, the one runner of the periodic jobs
 * ({@link com.kvportal.common.scheduling.PeriodicJobs}, whose jobs take their timing from their features' settings),
 * the workers that run soon after being asked, and the rule that a failed run is logged and left to the next one.
 */
@NullMarked
package com.kvportal.common.scheduling;

import org.jspecify.annotations.NullMarked;
