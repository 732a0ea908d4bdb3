/** The database: the server named by DATABASE_URL, or an embedded PostgreSQL that keeps its data in ./data. */
@NullMarked
package com.kvportal.common.database;

import org.jspecify.annotations.NullMarked;
