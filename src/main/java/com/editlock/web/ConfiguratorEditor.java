package com.editlock.web;

import com.editlock.configurator.ConcurrentModificationException;
import com.editlock.configurator.Configurator;
import com.editlock.configurator.ConfiguratorDraft;
import com.editlock.configurator.ConfiguratorService;
import com.editlock.configurator.ConfiguratorStatus;
import com.editlock.lock.Lock;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockManager;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockNotHeldException;
import com.editlock.lock.LockUnavailableException;
import com.editlock.platform.Settings;
import com.editlock.security.CurrentOwner;
import jakarta.annotation.PreDestroy;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.FacesContext;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.io.IOException;
import java.io.Serializable;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The configurator screen. It takes the aggregate's WRITE lock <em>before</em> loading the record for editing; when
 * someone else holds it, the screen shows the record read-only and says who holds it, since when and until when at
 * the latest. Save writes under the lock's fencing token and releases the lock; Done releases it without saving. A
 * refused save keeps what the user typed on the screen.
 */
@Named
@ViewScoped
public class ConfiguratorEditor implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(ConfiguratorEditor.class.getName());

    @Inject
    transient ConfiguratorService configurators;

    @Inject
    transient LockManager locks;

    @Inject
    transient CurrentOwner owner;

    @Inject
    transient Settings settings;

    /** This tab: locks remember the view that took them. */
    private final String viewToken = UUID.randomUUID().toString();

    private Long id;
    private boolean found;
    private Lock lock;
    private String lockStatus;
    private long expectedVersion;
    private String currentName;
    private String currentDescription;
    private ConfiguratorStatus currentStatus;
    private String name;
    private String description;
    private ConfiguratorStatus status;
    private String ownerId;

    /** Runs once when the page opens (f:viewAction). */
    public void open() {
        if (id == null || id <= 0) {
            error("There is no such configurator. Pick one from the list.");
            return;
        }
        ownerId = owner.get().ownerId();
        try {
            lock = locks.acquire(LockKey.configurator(id), LockMode.WRITE, owner.get(), viewToken);
            lockStatus = LockSentences.forServer().youAreEditing();
        } catch (LockUnavailableException e) {
            lock = null;
            lockStatus = LockSentences.forServer().beingEdited(e.holders());
        } catch (com.editlock.lock.UnknownResourceException e) {
            error("There is no configurator " + id + ". It may have been deleted.");
            return;
        }
        Optional<Configurator> loaded = configurators.find(id);
        if (loaded.isEmpty()) {
            error("There is no configurator " + id + ". It may have been deleted.");
            return;
        }
        found = true;
        showCurrent(loaded.get());
        name = currentName;
        description = currentDescription;
        status = currentStatus;
    }

    public String save() {
        if (lock == null) {
            error("You are not editing this configurator, so nothing was saved.");
            return null;
        }
        try {
            configurators.saveHeader(id, new ConfiguratorDraft(name, description, status), lock, expectedVersion);
        } catch (LockNotHeldException | ConcurrentModificationException e) {
            lock = null;
            lockStatus = e.getMessage();
            configurators.find(id).ifPresent(this::showCurrent);
            error(e.getMessage() + " Your changes are still in the form below; copy them before you leave.");
            return null;
        }
        release();
        info("Saved “" + name.strip() + "”. Your lock is released.");
        return "configurators?faces-redirect=true";
    }

    public String done() {
        release();
        info("You are no longer editing “" + currentName + "”.");
        return "configurators?faces-redirect=true";
    }

    /** The view is gone (evicted, or its session ended): its locks go with it. */
    @PreDestroy
    void viewDestroyed() {
        if (lock != null && locks != null) {
            try {
                locks.releaseView(ownerId, viewToken);
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "Could not release the locks of a destroyed view; the lease will.", e);
            }
        }
    }

    private void release() {
        if (lock != null) {
            locks.release(lock.key(), lock.ownerId());
            lock = null;
        }
    }

    private void showCurrent(Configurator c) {
        currentName = c.getName();
        currentDescription = c.getDescription();
        currentStatus = c.getStatus();
        expectedVersion = c.getVersion().getValue();
    }

    private static void error(String message) {
        FacesContext.getCurrentInstance().addMessage(null,
                new FacesMessage(FacesMessage.SEVERITY_ERROR, message, null));
    }

    private static void info(String message) {
        FacesContext faces = FacesContext.getCurrentInstance();
        faces.getExternalContext().getFlash().setKeepMessages(true);
        faces.addMessage(null, new FacesMessage(FacesMessage.SEVERITY_INFO, message, null));
    }

    public boolean isEditing() {
        return lock != null;
    }

    public boolean isFound() {
        return found;
    }

    public String getLockStatus() {
        return lockStatus;
    }

    public int getHeartbeatMillis() {
        return settings.heartbeatSeconds() * 1000;
    }

    public ConfiguratorStatus[] getStatuses() {
        return ConfiguratorStatus.values();
    }

    public Long getId() {
        return id;
    }

    public void setId(Long id) {
        this.id = id;
    }

    public String getCurrentName() {
        return currentName;
    }

    public String getCurrentDescription() {
        return currentDescription;
    }

    public ConfiguratorStatus getCurrentStatus() {
        return currentStatus;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getDescription() {
        return description;
    }

    public void setDescription(String description) {
        this.description = description;
    }

    public ConfiguratorStatus getStatus() {
        return status;
    }

    public void setStatus(ConfiguratorStatus status) {
        this.status = status;
    }
}
