/** The HTTP edge every feature shares: problem documents, the caller of a request, body limits. */
@NullMarked
package com.kvportal.common.web;

import org.jspecify.annotations.NullMarked;
