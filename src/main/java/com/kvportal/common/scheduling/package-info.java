/**
 * What the service's background work shares: its daemon threads, the loops that run a task every interval or soon
 * after being asked, and the rule that a failed run is logged and left to the next one.
 */
@NullMarked
package com.kvportal.common.scheduling;

import org.jspecify.annotations.NullMarked;
