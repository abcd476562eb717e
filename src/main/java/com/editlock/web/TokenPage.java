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

    @Inject ApiTokens tokens;

    @Inject CurrentOwner owner;

    private String name;
    private int days = 90;
    private String user;

    /** The secret of the token just made; shown once, gone with this view. */
    private String secret;

    private transient List<ApiTokens.Token> rows;

    @Inject Viewpoint reader;

    @Inject com.editlock.security.UserDirectory directory;

    /** A person by the name people know them by (their login only on the admin's User column). */
    public String person(String login) {
        return login == null ? "" : directory.displayName(login);
    }

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
                    reader.say("tokens.made", made.token().name(), person(whose)));
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
                    reader.say("tokens.revoked", t.name(), person(t.login())));
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
        return at == null ? "—" : reader.dateTime(at);
    }

    public String status(ApiTokens.Token t) {
        if (t.revokedAt() != null) {
            return reader.say(
                    "tokens.status.revoked", person(t.revokedBy()), reader.dateTime(t.revokedAt()));
        }
        return reader.say(
                t.active(Instant.now()) ? "tokens.status.active" : "tokens.status.expired");
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
