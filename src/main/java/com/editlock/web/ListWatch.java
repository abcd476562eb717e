package com.editlock.web;

import com.editlock.live.LivePages;
import com.editlock.security.CurrentOwner;
import com.editlock.security.SessionTimeout;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.io.Serializable;
import java.util.UUID;

/**
 * Keeps an open configurator list live: its tab is told of every lock change, and re-renders its
 * table.
 */
@Named
@ViewScoped
public class ListWatch implements Serializable {

    private static final long serialVersionUID = 1L;

    @Inject LivePages live;

    @Inject CurrentOwner owner;

    private final String viewToken = UUID.randomUUID().toString();

    @PostConstruct
    void watch() {
        live.open(viewToken, owner.get().ownerId(), null, null);
    }

    @PreDestroy
    void stop() {
        if (live != null) {
            live.forget(viewToken);
        }
    }

    /**
     * The page's own look when news arrives (it re-renders the list): background, not its user's.
     */
    public void look() {
        SessionTimeout.background();
    }

    public String getViewToken() {
        return viewToken;
    }
}
