/** The key cache's lease protocol: the instances' leases, the invalidation log they all follow, the keys in memory and the wait of every narrowing change. */
@NullMarked
package com.kvportal.apikey.cache;

import org.jspecify.annotations.NullMarked;
