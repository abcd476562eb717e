package com.editlock.lock;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Fowler's <em>Implicit Lock</em>: a method of an editing service that touches a lockable record
 * says so, and the lock is taken or checked for it, so no caller can forget.
 *
 * <ul>
 *   <li>{@link Access#LOAD_FOR_EDIT}: the method takes one {@link LockRequest}; the lock is
 *       acquired <em>before</em> the method runs and the method receives the request with the
 *       granted lock ({@link LockRequest#granted()}). Unavailable: {@link
 *       LockUnavailableException}, and the method does not run.
 *   <li>{@link Access#WRITE}: the method takes one {@link Lock}, the lock the caller holds, and
 *       writes only what that lock's key names. Before the method runs, inside its transaction, the
 *       lock is verified to be still held with its fencing token; otherwise {@link
 *       LockNotHeldException} and nothing is written. Writes never acquire: failing late is what
 *       pessimistic locking exists to avoid.
 * </ul>
 *
 * The target is the parameter of that type, never a string expression that could silently miss.
 */
@Inherited
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface RequiresLock {

    /** What the method does with the locked record. */
    @Nonbinding
    Access value() default Access.WRITE;

    /** How a method uses its lock. */
    enum Access {
        LOAD_FOR_EDIT,
        WRITE
    }
}
