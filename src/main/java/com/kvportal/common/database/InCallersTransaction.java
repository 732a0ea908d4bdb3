package com.kvportal.common.database;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * A component that writes only inside a transaction its caller opened ({@link Propagation#MANDATORY}): what it writes
 * commits or rolls back with the change that brought it, and a call outside a transaction fails at once instead of
 * committing half a change. A method may still declare a propagation of its own.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Component
@Transactional(propagation = Propagation.MANDATORY)
public @interface InCallersTransaction {}
