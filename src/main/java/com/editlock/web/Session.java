package com.editlock.web;

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

    @Inject
    CurrentOwner owner;

    @Inject
    FacesContext faces;

    public String getDisplayName() {
        return owner.find().map(LockOwner::displayName).orElse("");
    }

    public boolean isAdmin() {
        return owner.isAdmin();
    }

    /** Ends the session; its {@code LockRemover} releases every lock it held, at once. */
    public void logout() throws IOException, ServletException {
        ExternalContext ext = faces.getExternalContext();
        HttpServletRequest request = (HttpServletRequest) ext.getRequest();
        request.logout();
        ext.invalidateSession();
        ext.redirect(ext.getRequestContextPath() + "/login.xhtml?loggedOut=true");
    }
}
