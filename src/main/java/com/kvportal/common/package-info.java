/**
 * What truly is shared by every feature: problem details, the HTTP edge, the database (and its columns' conversions,
 * {@code database.Sql}), enums' wire names ({@link com.kvportal.common.WireName}) and base URL.
 */
@ApplicationModule(type = ApplicationModule.Type.OPEN)
@NullMarked
package com.kvportal.common;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
