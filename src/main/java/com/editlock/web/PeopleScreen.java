package com.editlock.web;

import com.editlock.security.CurrentOwner;
import com.editlock.security.People;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.FacesContext;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.io.Serializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code admin/people.xhtml}: everyone who may log in, for admins. Add a person (Editlock makes
 * their password and shows it here once), change a person's roles, give them a new password (shown
 * once), disable them with a reason, enable them again; the rules are {@link People}'s, the same as
 * {@code /api/people}'s.
 */
@Named
@ViewScoped
public class PeopleScreen implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The roles in the order the screen shows them. */
    public static final List<String> ROLES = List.of("editor", "take-over", "admin");

    @Inject People people;

    @Inject CurrentOwner owner;

    @Inject Viewpoint reader;

    @Inject com.editlock.platform.Settings settings;

    /** Whether people may have a password kept here (else they come from the provider). */
    public boolean isPasswords() {
        return settings.passwords();
    }

    private String login;
    private String name;
    private final Map<String, Boolean> newRoles = new HashMap<>(Map.of("editor", true));

    /** Each listed person's roles as ticked on the screen, by "login/role". */
    private final Map<String, Boolean> roles = new HashMap<>();

    /** The person whose disabling waits for a reason, or null. */
    private String disabling;

    private String reason;

    /** A password just made, shown once, and whose it is. */
    private String password;

    private String passwordOf;

    private transient List<People.Person> rows;

    public List<People.Person> getRows() {
        if (rows == null) {
            rows = people.list();
            roles.clear();
            for (People.Person p : rows) {
                for (String role : ROLES) {
                    roles.put(p.login() + "/" + role, p.roles().contains(role));
                }
            }
        }
        return rows;
    }

    public List<String> getRoleNames() {
        return ROLES;
    }

    public void add() {
        try {
            People.Added added = people.add(login, name, ticked(newRoles, ""), me());
            password = added.password();
            passwordOf = added.person().name();
            told(reader.say("people.added", added.person().name(), added.person().login()));
            login = null;
            name = null;
            newRoles.clear();
            newRoles.put("editor", true);
            rows = null;
        } catch (People.PersonException e) {
            refused(e);
        }
    }

    public void saveRoles(String whose) {
        try {
            People.Person p = people.setRoles(whose, ticked(roles, whose + "/"), me());
            told(reader.say("people.rolesSaved", p.name(), String.join(", ", rolesOf(p))));
            rows = null;
        } catch (People.PersonException e) {
            refused(e);
        }
    }

    public void resetPassword(String whose) {
        try {
            password = people.resetPassword(whose, me());
            passwordOf = people.find(whose).map(People.Person::name).orElse(whose);
            told(reader.say("people.passwordReset", passwordOf));
        } catch (People.PersonException e) {
            refused(e);
        }
    }

    public void askDisable(String whose) {
        disabling = whose;
        reason = null;
    }

    public void cancelDisable() {
        disabling = null;
        reason = null;
    }

    public void disable() {
        try {
            People.Person p = people.disable(disabling, reason, me());
            told(reader.say("people.disabled", p.name()));
            disabling = null;
            reason = null;
            rows = null;
        } catch (People.PersonException e) {
            refused(e);
        }
    }

    public void enable(String whose) {
        try {
            People.Person p = people.enable(whose, me());
            told(reader.say("people.enabled", p.name()));
            rows = null;
        } catch (People.PersonException e) {
            refused(e);
        }
    }

    /** The name of the person whose disabling waits for a reason. */
    public String getDisablingName() {
        return disabling == null
                ? ""
                : people.find(disabling).map(People.Person::name).orElse(disabling);
    }

    public String time(Instant at) {
        return at == null ? "\u2014" : reader.dateTime(at);
    }

    public String status(People.Person p) {
        return p.isDisabled()
                ? reader.say(
                        "people.status.disabled",
                        p.disabledBy(),
                        reader.dateTime(p.disabledAt()),
                        p.disabledReason())
                : reader.say("people.status.active");
    }

    public String roleName(String role) {
        return reader.say("people.role." + role);
    }

    private List<String> rolesOf(People.Person p) {
        return ROLES.stream().filter(p.roles()::contains).map(this::roleName).toList();
    }

    private static List<String> ticked(Map<String, Boolean> ticks, String prefix) {
        List<String> chosen = new ArrayList<>();
        for (String role : ROLES) {
            if (Boolean.TRUE.equals(ticks.get(prefix + role))) {
                chosen.add(role);
            }
        }
        return chosen;
    }

    private String me() {
        return owner.get().login();
    }

    private static void told(String text) {
        FacesContext.getCurrentInstance()
                .addMessage(null, new FacesMessage(FacesMessage.SEVERITY_INFO, text, null));
    }

    private void refused(People.PersonException e) {
        FacesContext.getCurrentInstance()
                .addMessage(
                        null,
                        new FacesMessage(
                                FacesMessage.SEVERITY_ERROR,
                                reader.say("people.refused", reader.say(e.key(), e.args())),
                                null));
    }

    public String getLogin() {
        return login;
    }

    public void setLogin(String login) {
        this.login = login;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public Map<String, Boolean> getNewRoles() {
        return newRoles;
    }

    public Map<String, Boolean> getRoles() {
        return roles;
    }

    public String getDisabling() {
        return disabling;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    public String getPassword() {
        return password;
    }

    public String getPasswordOf() {
        return passwordOf;
    }
}
