/** The database: the server named by DATABASE_URL, or the embedded PostgreSQL ({@code com.kvportal.embedded}). */
@NullMarked
package com.kvportal.common.database;

import org.jspecify.annotations.NullMarked;
