/** kv-portal: API keys and billing for the customers of a storage product. */
@NullMarked
package com.kvportal;

import org.jspecify.annotations.NullMarked;
