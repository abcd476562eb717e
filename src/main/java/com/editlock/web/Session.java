package com.editlock.web;

import com.editlock.lock.LockManager;
import com.editlock.lock.LockOwner;
import com.editlock.security.CurrentOwner;
import jakarta.enterprise.context.RequestScoped;
import jakarta.faces.context.ExternalContext;
import jakarta.faces.context.FacesContext;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;

/** The header every screen shows: who is logged in, and logout. */
@Named("userSession")
@RequestScoped
public class Session {

    @Inject CurrentOwner owner;

    @Inject FacesContext faces;

    @Inject LockManager locks;

    public String getDisplayName() {
        return owner.find().map(LockOwner::displayName).orElse("");
    }

    public boolean isAdmin() {
        return owner.isAdmin();
    }

    /**
     * Ends the session and every lock it held, at once. The locks are released here, before the
     * session goes, so the history says the session ended (invalidating first would let each open
     * view release its own locks as closed views); the session's {@code LockRemover} then finds
     * nothing left, as on any second release.
     */
    public void logout() throws IOException, ServletException {
        ExternalContext ext = faces.getExternalContext();
        HttpServletRequest request = (HttpServletRequest) ext.getRequest();
        owner.find().ifPresent(me -> locks.releaseAll(me.ownerId()));
        request.logout();
        ext.invalidateSession();
        ext.redirect(ext.getRequestContextPath() + "/login.xhtml?loggedOut=true");
    }
}
