package com.editlock.lock;

/**
 * A session asked for more locks than one session may hold ({@code locks.max.locks.per.session}).
 * Nothing was granted; releasing some of the session's locks lets it take others. A person at the
 * screens never comes near the cap: it stops a runaway script from filling the lock table.
 */
public class LockLimitException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public LockLimitException(int cap, String setting) {
        super(
                "This session already holds as many locks as one session may ("
                        + cap
                        + "); release some before taking "
                        + "more. An administrator can change the cap with "
                        + setting
                        + ".");
    }
}
