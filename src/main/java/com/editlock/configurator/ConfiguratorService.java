package com.editlock.configurator;

import com.editlock.lock.Lock;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockManager;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.Optional;

/** Reads configurators and saves them under a fenced lock. */
@ApplicationScoped
public class ConfiguratorService {

    @PersistenceContext
    EntityManager em;

    @Inject
    LockManager locks;

    public List<ConfiguratorSummary> list() {
        return em.createQuery("select new com.editlock.configurator.ConfiguratorSummary(c.id, c.name, c.status,"
                + " size(c.items)) from Configurator c order by c.name, c.id", ConfiguratorSummary.class)
                .getResultList();
    }

    public Optional<Configurator> find(long id) {
        return Optional.ofNullable(em.find(Configurator.class, id));
    }

    /**
     * Saves the header of configurator {@code id} in one transaction that first checks {@code lock} is still held
     * with its fencing token, then bumps the shared version from {@code expectedVersion}.
     *
     * @throws com.editlock.lock.LockNotHeldException when the lock was lost; nothing is written
     * @throws ConcurrentModificationException when the version moved; nothing is written
     */
    @Transactional
    public void saveHeader(long id, ConfiguratorDraft draft, Lock lock, long expectedVersion) {
        LockKey key = LockKey.configurator(id);
        if (!lock.key().equals(key)) {
            throw new IllegalArgumentException("The lock on " + lock.key() + " does not cover " + key + ".");
        }
        locks.verify(key, lock.ownerId(), lock.fencingToken());
        Configurator c = em.find(Configurator.class, id);
        if (c == null) {
            throw new com.editlock.lock.UnknownResourceException(key);
        }
        bumpVersion(c.getVersion().getId(), expectedVersion, lock.userLogin());
        c.setName(draft.name().strip());
        c.setDescription(draft.description() == null ? "" : draft.description().strip());
        c.setStatus(draft.status());
    }

    private void bumpVersion(long versionId, long expected, String login) {
        int updated = em.createNativeQuery("update aggregate_version set value = value + 1, modified_by = ?1,"
                + " modified_at = now() where id = ?2 and value = ?3")
                .setParameter(1, login).setParameter(2, versionId).setParameter(3, expected).executeUpdate();
        if (updated != 1) {
            throw new ConcurrentModificationException("This configurator was changed by someone else since you opened"
                    + " it; nothing was saved. Reload to see the current version.");
        }
    }
}
