/** Secret scanning: a provider's report of leaked keys, its signature checked, answered with each key's verdict. */
@NullMarked
package com.kvportal.apikey.scanning;

import org.jspecify.annotations.NullMarked;
