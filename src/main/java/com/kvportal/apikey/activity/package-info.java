/** What a key's use leaves behind: last_used_at written in batches, and the notices of keys about to expire. */
@NullMarked
package com.kvportal.apikey.activity;

import org.jspecify.annotations.NullMarked;
