package com.editlock.web;

import com.editlock.security.EditlockAuthentication;
import com.editlock.security.ProviderLogin;
import jakarta.enterprise.context.RequestScoped;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.ExternalContext;
import jakarta.faces.context.FacesContext;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.security.enterprise.AuthenticationStatus;
import jakarta.security.enterprise.SecurityContext;
import jakarta.security.enterprise.authentication.mechanism.http.AuthenticationParameters;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.time.Duration;

/** The login screen. */
@Named
@RequestScoped
public class LoginPage {

    @Inject SecurityContext security;

    @Inject FacesContext faces;

    @Inject Viewpoint reader;

    @Inject ProviderLogin provider;

    @Inject com.editlock.platform.Settings settings;

    private String next;
    private String username;
    private String password;

    public void login() throws IOException, ServletException {
        ExternalContext ext = faces.getExternalContext();
        HttpServletRequest request = (HttpServletRequest) ext.getRequest();
        if (request.getUserPrincipal() != null) {
            // Someone else logs in from this browser: end the first user's session (and release its
            // locks) first.
            request.logout();
            HttpSession old = request.getSession(false);
            if (old != null) {
                old.invalidate();
            }
        }
        AuthenticationStatus status =
                security.authenticate(
                        request,
                        (HttpServletResponse) ext.getResponse(),
                        AuthenticationParameters.withParams()
                                .newAuthentication(true)
                                .credential(
                                        new UsernamePasswordCredential(
                                                username == null ? "" : username,
                                                password == null ? "" : password)));
        switch (status) {
            case SUCCESS -> ext.redirect(ext.getRequestContextPath() + safeNext());
            case SEND_CONTINUE -> faces.responseComplete();
            default -> {
                String message =
                        request.getAttribute(EditlockAuthentication.RETRY_AFTER)
                                        instanceof Duration wait
                                ? reader.say("login.throttled", wait.toSeconds())
                                : request.getAttribute(EditlockAuthentication.PASSWORDS_OFF) != null
                                        ? reader.say("login.passwordsOff", provider.name())
                                        : request.getAttribute(
                                                                EditlockAuthentication
                                                                        .DIRECTORY_DOWN)
                                                        != null
                                                ? reader.say("login.down")
                                                : reader.say("login.wrong");
                faces.addMessage(
                        null, new FacesMessage(FacesMessage.SEVERITY_ERROR, message, null));
            }
        }
    }

    /**
     * Where to go after login: the page that sent the user here, if it is a path inside this
     * application (never another site: {@code //host} and schemes are refused), else the
     * configurator list.
     */
    String safeNext() {
        return ProviderLogin.safeNext(next);
    }

    /** Whether the login page offers its password form. */
    public boolean isPasswords() {
        return settings.passwords();
    }

    /** Whether the login page offers the company's provider. */
    public boolean isProvider() {
        return provider.configured();
    }

    /** The button's words: "Log in with …". */
    public String getProviderLabel() {
        return reader.say("login.provider", provider.name());
    }

    /** Where the button goes: the sign-in's start, with the page to come back to. */
    public String getProviderHref() {
        ExternalContext ext = faces.getExternalContext();
        return ext.getRequestContextPath()
                + ProviderLogin.START
                + (next == null
                        ? ""
                        : "?next="
                                + java.net.URLEncoder.encode(
                                        next, java.nio.charset.StandardCharsets.UTF_8));
    }

    public String getNext() {
        return next;
    }

    public void setNext(String next) {
        this.next = next;
    }

    public String getUsername() {
        return username;
    }

    public void setUsername(String username) {
        this.username = username;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }
}
