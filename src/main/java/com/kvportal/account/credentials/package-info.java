/** What proves a customer is who they say: passwords (reset, change), the mailed links (verification, email change) and sessions. */
@NullMarked
package com.kvportal.account.credentials;

import org.jspecify.annotations.NullMarked;
