package com.editlock.security;

import com.editlock.lock.LockOwner;
import com.editlock.lock.SessionLocks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;

/** The lock owner of the current request's session. */
@ApplicationScoped
public class CurrentOwner {

    @Inject HttpServletRequest request;

    /** The owner, if the caller logged in with this session. */
    public Optional<LockOwner> find() {
        return SessionLocks.owner(request.getSession(false));
    }

    /** The owner; a logged-in caller always has one. */
    public LockOwner get() {
        return find().orElseThrow(
                        () ->
                                new IllegalStateException(
                                        "This session has no lock owner: log in again."));
    }

    public boolean isAdmin() {
        return request.isUserInRole(Roles.ADMIN);
    }
}
