package com.editlock.web;

import com.editlock.security.ApiTokens;
import com.editlock.security.CurrentOwner;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.FacesContext;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.io.Serializable;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * {@code tokens.xhtml}: a person's personal API tokens (an admin's: everyone's). Make one (its
 * secret is shown on this page once, then never again), see when each was last used, revoke one.
 * The same rules as {@code /api/tokens}, from {@link ApiTokens}.
 */
@Named
@ViewScoped
public class TokenPage implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneId.systemDefault());

    @Inject transient ApiTokens tokens;

    @Inject transient CurrentOwner owner;

    private String name;
    private int days = 90;
    private String user;

    /** The secret of the token just made; shown once, gone with this view. */
    private String secret;

    private transient List<ApiTokens.Token> rows;

    public void create() {
        String me = owner.get().login();
        String whose = owner.isAdmin() && user != null && !user.isBlank() ? user.strip() : me;
        try {
            ApiTokens.Created made = tokens.create(whose, name, days, me, owner.isAdmin());
            secret = made.secret();
            name = null;
            user = null;
            rows = null;
            message(
                    FacesMessage.SEVERITY_INFO,
                    "Token \""
                            + made.token().name()
                            + "\" made for "
                            + whose
                            + ". Copy it now: it is not shown again.");
        } catch (ApiTokens.TokenException e) {
            message(FacesMessage.SEVERITY_ERROR, e.getMessage());
        }
    }

    public void revoke(long id) {
        try {
            ApiTokens.Token t = tokens.revoke(id, owner.get().login(), owner.isAdmin());
            rows = null;
            message(
                    FacesMessage.SEVERITY_INFO,
                    "Token \"" + t.name() + "\" of " + t.login() + " is revoked.");
        } catch (ApiTokens.TokenException e) {
            message(FacesMessage.SEVERITY_ERROR, e.getMessage());
        }
    }

    public List<ApiTokens.Token> getRows() {
        if (rows == null) {
            rows = tokens.list(owner.isAdmin() ? null : owner.get().login());
        }
        return rows;
    }

    public String time(Instant at) {
        return at == null ? "—" : TIME.format(at);
    }

    public String status(ApiTokens.Token t) {
        if (t.revokedAt() != null) {
            return "revoked by " + t.revokedBy() + " " + TIME.format(t.revokedAt());
        }
        return t.active(Instant.now()) ? "active" : "expired";
    }

    public boolean isAdmin() {
        return owner.isAdmin();
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public int getDays() {
        return days;
    }

    public void setDays(int days) {
        this.days = days;
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    public String getSecret() {
        return secret;
    }

    private static void message(FacesMessage.Severity severity, String text) {
        FacesContext.getCurrentInstance().addMessage(null, new FacesMessage(severity, text, null));
    }
}
