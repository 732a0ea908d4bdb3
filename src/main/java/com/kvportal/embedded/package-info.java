/**
 * The embedded PostgreSQL: zonky's binaries run as a durable, closed server that keeps its data in a directory of its
 * own ({@code ./data/postgres} by default), used when {@code DATABASE_URL} is unset.
 * {@link com.kvportal.embedded.EmbeddedDataSource} is the module's public surface.
 */
@ApplicationModule(allowedDependencies = {})
@NullMarked
package com.kvportal.embedded;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
