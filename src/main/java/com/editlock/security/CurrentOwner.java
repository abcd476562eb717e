package com.editlock.security;

import com.editlock.lock.LockOwner;
import com.editlock.lock.SessionLocks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;

/**
 * The lock owner of the current request: its API token's (each token is an owner of its own), else
 * its session's.
 */
@ApplicationScoped
public class CurrentOwner {

    @Inject HttpServletRequest request;

    /** The request attribute that holds the owner of a request made with an API token. */
    static final String TOKEN_OWNER = "editlock.tokenOwner";

    /** The request attribute that holds the id of the API token the caller presented. */
    static final String TOKEN_ID = "editlock.tokenId";

    /** The owner, if the caller presented an API token or logged in with this session. */
    public Optional<LockOwner> find() {
        if (request.getAttribute(TOKEN_OWNER) instanceof LockOwner token) {
            return Optional.of(token);
        }
        return SessionLocks.owner(request.getSession(false));
    }

    /** Whether this request was made with an API token (rather than a password login). */
    public boolean byToken() {
        return request.getAttribute(TOKEN_OWNER) != null;
    }

    /** The id of the API token this request was made with, if it was made with one. */
    public java.util.OptionalLong tokenId() {
        return request.getAttribute(TOKEN_ID) instanceof Long id
                ? java.util.OptionalLong.of(id)
                : java.util.OptionalLong.empty();
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

    /** Whether the caller may take a lock from its holder: an admin, or the take-over role. */
    public boolean mayTakeOver() {
        return isAdmin() || request.isUserInRole(Roles.TAKE_OVER);
    }
}
