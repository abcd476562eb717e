/**
 * How a request that cannot be served is answered: a page or a JSON {@code {"error": …}} with a
 * sentence that says what happened and what to do, the right status, never a stack trace, and
 * whatever the user typed into a form that can no longer be processed shown back so nothing typed
 * is lost.
 */
package com.editlock.errors;
