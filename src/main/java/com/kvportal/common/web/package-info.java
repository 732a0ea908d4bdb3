/** The HTTP edge every feature shares: problem documents, body limits, JSON conventions. */
@NullMarked
package com.kvportal.common.web;

import org.jspecify.annotations.NullMarked;
