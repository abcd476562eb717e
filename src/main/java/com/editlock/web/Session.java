package com.editlock.web;

import com.editlock.lock.LockManager;
import com.editlock.lock.LockOwner;
import com.editlock.security.CurrentOwner;
import com.editlock.security.ProviderLogin;
import jakarta.enterprise.context.RequestScoped;
import jakarta.faces.context.ExternalContext;
import jakarta.faces.context.FacesContext;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.net.URI;
import java.util.Optional;

/** The header every screen shows: who is logged in, and logout. */
@Named("userSession")
@RequestScoped
public class Session {

    @Inject CurrentOwner owner;

    @Inject FacesContext faces;

    @Inject LockManager locks;

    @Inject ProviderLogin provider;

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
        String idToken = ProviderLogin.idTokenOf(request.getSession(false));
        request.logout();
        ext.invalidateSession();
        String loggedOut = "/login.xhtml?loggedOut=true";
        // Logged in through the company's provider: logged out there too, and back here.
        Optional<URI> there =
                provider.logoutAt(idToken, URI.create(provider.baseOf(request) + loggedOut));
        ext.redirect(there.map(URI::toString).orElse(ext.getRequestContextPath() + loggedOut));
    }
}
