package com.editlock.configurator;

import com.editlock.lock.LockKey;
import com.editlock.lock.ResourceCatalog;
import com.editlock.lock.UnknownResourceException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;

/** Knows which configurator every lockable resource belongs to, and that it exists. */
@ApplicationScoped
public class ConfiguratorCatalog implements ResourceCatalog {

    @PersistenceContext EntityManager em;

    @Override
    public LockKey aggregateOf(LockKey key) {
        List<?> owner =
                switch (key.kind()) {
                    case CONFIGURATOR, CONFIGURATOR_VARIABLES ->
                            em.createNativeQuery("select id from configurator where id = ?1")
                                    .setParameter(1, key.id())
                                    .getResultList();
                    case ITEM_FILTERS ->
                            em.createNativeQuery(
                                            "select configurator_id from configurator_item where id = ?1")
                                    .setParameter(1, key.id())
                                    .getResultList();
                };
        if (owner.isEmpty()) {
            throw new UnknownResourceException(key);
        }
        return LockKey.configurator(((Number) owner.get(0)).longValue());
    }
}
