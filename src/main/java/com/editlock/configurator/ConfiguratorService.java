package com.editlock.configurator;

import com.editlock.lock.EditingService;
import com.editlock.lock.Lock;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockNotHeldException;
import com.editlock.lock.LockRequest;
import com.editlock.lock.LockUnavailableException;
import com.editlock.lock.ReadsOnly;
import com.editlock.lock.RequiresLock;
import com.editlock.lock.RetryTransientFailures;
import com.editlock.lock.UnknownResourceException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Loads configurators for editing and saves them, always under a lock.
 *
 * <p>Opening takes the lock first ({@code @RequiresLock(LOAD_FOR_EDIT)}), so what the editor sees
 * was loaded while nobody else could change it. Saving runs in one transaction that first verifies
 * the caller's lock and fencing token ({@code @RequiresLock(WRITE)}), then bumps the aggregate's
 * shared version, then writes. A whole-aggregate save expects the version it was loaded at; a
 * sub-page save (one item's filters, the variables) bumps it without that check, because two people
 * may hold two different sub-pages of one configurator at once and neither must refuse the other —
 * the locks already keep them apart.
 */
@EditingService
@ApplicationScoped
@RetryTransientFailures
public class ConfiguratorService {

    @PersistenceContext EntityManager em;

    /** The first {@code limit} configurators by name: every list on a screen is bounded. */
    @ReadsOnly
    public List<ConfiguratorSummary> list(int limit) {
        return em.createQuery(
                        "select new com.editlock.configurator.ConfiguratorSummary(c.id, c.name, c.status,"
                                + " size(c.items)) from Configurator c order by c.name, c.id",
                        ConfiguratorSummary.class)
                .setMaxResults(limit)
                .getResultList();
    }

    /** The names of the configurators with these ids (a page of the dashboard names at most 50). */
    @ReadsOnly
    public java.util.Map<Long, String> names(java.util.Collection<Long> ids) {
        if (ids.isEmpty()) {
            return java.util.Map.of();
        }
        return em
                .createQuery(
                        "select c.id, c.name from Configurator c where c.id in :ids",
                        Object[].class)
                .setParameter("ids", ids)
                .getResultList()
                .stream()
                .collect(java.util.stream.Collectors.toMap(r -> (Long) r[0], r -> (String) r[1]));
    }

    /**
     * The names people know these records by (a dashboard or history page names at most 50): the
     * configurator's, and the item's for an item's filters. A record that no longer exists has
     * {@code null} names.
     */
    @ReadsOnly
    public Map<LockKey, RecordName> recordNames(java.util.Collection<LockKey> keys) {
        java.util.Set<Long> configuratorIds = new java.util.HashSet<>();
        java.util.Set<Long> itemIds = new java.util.HashSet<>();
        for (LockKey k : keys) {
            (k.kind() == LockKey.Kind.ITEM_FILTERS ? itemIds : configuratorIds).add(k.id());
        }
        Map<Long, String> configurators = names(configuratorIds);
        Map<Long, String[]> items = new HashMap<>();
        if (!itemIds.isEmpty()) {
            em.createQuery(
                            "select i.id, i.name, i.configurator.name from ConfiguratorItem i"
                                    + " where i.id in :ids",
                            Object[].class)
                    .setParameter("ids", itemIds)
                    .getResultList()
                    .forEach(
                            r ->
                                    items.put(
                                            (Long) r[0],
                                            new String[] {(String) r[2], (String) r[1]}));
        }
        Map<LockKey, RecordName> named = new HashMap<>();
        for (LockKey k : keys) {
            if (k.kind() == LockKey.Kind.ITEM_FILTERS) {
                String[] n = items.get(k.id());
                named.put(k, new RecordName(k, n == null ? null : n[0], n == null ? null : n[1]));
            } else {
                named.put(k, new RecordName(k, configurators.get(k.id()), null));
            }
        }
        return named;
    }

    /** The configurator as it is now, for read-only display. */
    @ReadsOnly
    @Transactional
    public Optional<ConfiguratorDraft> current(long id) {
        return Optional.ofNullable(em.find(Configurator.class, id))
                .map(ConfiguratorService::draftOf);
    }

    @ReadsOnly
    @Transactional
    public Optional<VariablesDraft> currentVariables(long configuratorId) {
        return Optional.ofNullable(em.find(Configurator.class, configuratorId))
                .map(ConfiguratorService::variablesOf);
    }

    @ReadsOnly
    @Transactional
    public Optional<FiltersDraft> currentFilters(long itemId) {
        return Optional.ofNullable(em.find(ConfiguratorItem.class, itemId))
                .map(ConfiguratorService::filtersOf);
    }

    @RequiresLock(RequiresLock.Access.LOAD_FOR_EDIT)
    @Transactional(
            dontRollbackOn =
                    LockUnavailableException.class) // the denial stays in the audit history
    public Editing<ConfiguratorDraft> openConfigurator(LockRequest request) {
        expect(request.key(), LockKey.Kind.CONFIGURATOR);
        return new Editing<>(
                request.granted(), draftOf(configurator(request.key().id(), request.key())));
    }

    @RequiresLock(RequiresLock.Access.LOAD_FOR_EDIT)
    @Transactional(
            dontRollbackOn =
                    LockUnavailableException.class) // the denial stays in the audit history
    public Editing<VariablesDraft> openVariables(LockRequest request) {
        expect(request.key(), LockKey.Kind.CONFIGURATOR_VARIABLES);
        return new Editing<>(
                request.granted(), variablesOf(configurator(request.key().id(), request.key())));
    }

    @RequiresLock(RequiresLock.Access.LOAD_FOR_EDIT)
    @Transactional(
            dontRollbackOn =
                    LockUnavailableException.class) // the denial stays in the audit history
    public Editing<FiltersDraft> openFilters(LockRequest request) {
        expect(request.key(), LockKey.Kind.ITEM_FILTERS);
        return new Editing<>(request.granted(), filtersOf(item(request.key().id(), request.key())));
    }

    /**
     * Saves the whole aggregate held by {@code held} ({@code configurator:{id}}): fields, items
     * (added, changed, reordered, removed) and variables. Returns the new version.
     */
    @RequiresLock
    @Transactional
    public long saveConfigurator(Lock held, ConfiguratorDraft draft) {
        covers(held, LockKey.Kind.CONFIGURATOR, draft.id());
        DraftRules.check(draft);
        Configurator c = configurator(draft.id(), held.key());
        long version = bumpVersion(c.getVersion().getId(), draft.version(), held.userLogin());
        c.setName(draft.name().strip());
        c.setDescription(draft.description() == null ? "" : draft.description().strip());
        c.setStatus(draft.status());
        syncItems(c, draft.items());
        syncVariables(c, draft.variables());
        return version;
    }

    /** Saves the variables sub-page held by {@code held} ({@code configurator:{id}:variables}). */
    @RequiresLock
    @Transactional
    public long saveVariables(Lock held, VariablesDraft draft) {
        covers(held, LockKey.Kind.CONFIGURATOR_VARIABLES, draft.configuratorId());
        DraftRules.check(draft);
        Configurator c = configurator(draft.configuratorId(), held.key());
        long version = bumpVersion(c.getVersion().getId(), null, held.userLogin());
        syncVariables(c, draft.variables());
        return version;
    }

    /** Saves one item's filter rules, held by {@code held} ({@code item:{id}:filters}). */
    @RequiresLock
    @Transactional
    public long saveFilters(Lock held, FiltersDraft draft) {
        covers(held, LockKey.Kind.ITEM_FILTERS, draft.itemId());
        DraftRules.check(draft);
        ConfiguratorItem item = item(draft.itemId(), held.key());
        long version = bumpVersion(item.getVersionId(), null, held.userLogin());
        item.getFilters().clear();
        em.flush(); // delete the old rules before the new ones go in
        for (int i = 0; i < draft.rules().size(); i++) {
            item.getFilters().add(new ItemFilter(item, i, draft.rules().get(i).strip()));
        }
        return version;
    }

    private static void expect(LockKey key, LockKey.Kind kind) {
        if (key.kind() != kind) {
            throw new IllegalArgumentException(key + " is not a " + kind + " key.");
        }
    }

    private static void covers(Lock held, LockKey.Kind kind, long id) {
        if (held.key().kind() != kind || held.key().id() != id) {
            LockKey wanted = new LockKey(kind, id);
            throw new LockNotHeldException(
                    wanted,
                    "Your lock on "
                            + held.key()
                            + " does not cover "
                            + wanted
                            + ", so nothing was saved.");
        }
    }

    private Configurator configurator(long id, LockKey key) {
        Configurator c = em.find(Configurator.class, id);
        if (c == null) {
            throw new UnknownResourceException(key);
        }
        return c;
    }

    private ConfiguratorItem item(long id, LockKey key) {
        ConfiguratorItem item = em.find(ConfiguratorItem.class, id);
        if (item == null) {
            throw new UnknownResourceException(key);
        }
        return item;
    }

    private long bumpVersion(long versionId, Long expected, String login) {
        String sql =
                "update aggregate_version set value = value + 1, modified_by = ?1, modified_at = now()"
                        + " where id = ?2"
                        + (expected == null ? "" : " and value = ?3")
                        + " returning value";
        var query = em.createNativeQuery(sql).setParameter(1, login).setParameter(2, versionId);
        if (expected != null) {
            query.setParameter(3, expected);
        }
        List<?> bumped = query.getResultList();
        if (bumped.isEmpty()) {
            throw new ConcurrentModificationException(
                    "This configurator was changed since you opened it, so nothing"
                            + " was saved. Your changes are still on the screen; reopen it to see the current version.");
        }
        return ((Number) bumped.get(0)).longValue();
    }

    private void syncItems(Configurator c, List<ItemDraft> drafts) {
        Map<Long, ConfiguratorItem> existing = new HashMap<>();
        c.getItems().forEach(i -> existing.put(i.getId(), i));
        List<ConfiguratorItem> ordered = new ArrayList<>();
        for (int position = 0; position < drafts.size(); position++) {
            ItemDraft d = drafts.get(position);
            ConfiguratorItem item =
                    d.id() == null ? new ConfiguratorItem(c) : existing.remove(d.id());
            if (item == null) {
                throw new InvalidDraftException(
                        List.of(
                                new InvalidDraftException.Problem(
                                        "items[" + position + "]",
                                        "Item "
                                                + d.id()
                                                + " does not belong to this configurator.")));
            }
            item.setName(d.name().strip());
            item.setPrice(d.price());
            item.setPosition(position);
            ordered.add(item);
        }
        c.getItems().clear();
        c.getItems().addAll(ordered);
    }

    private void syncVariables(Configurator c, List<VariableDraft> drafts) {
        Map<Long, ConfiguratorVariable> existing = new HashMap<>();
        c.getVariables().forEach(v -> existing.put(v.getId(), v));
        List<ConfiguratorVariable> kept = new ArrayList<>();
        for (int i = 0; i < drafts.size(); i++) {
            VariableDraft d = drafts.get(i);
            ConfiguratorVariable v =
                    d.id() == null ? new ConfiguratorVariable(c) : existing.remove(d.id());
            if (v == null) {
                throw new InvalidDraftException(
                        List.of(
                                new InvalidDraftException.Problem(
                                        "variables[" + i + "]",
                                        "Variable "
                                                + d.id()
                                                + " does not belong to this configurator.")));
            }
            v.update(d);
            kept.add(v);
        }
        c.getVariables().clear();
        c.getVariables().addAll(kept);
    }

    private static ConfiguratorDraft draftOf(Configurator c) {
        return new ConfiguratorDraft(
                c.getId(),
                c.getName(),
                c.getDescription(),
                c.getStatus(),
                c.getItems().stream()
                        .map(i -> new ItemDraft(i.getId(), i.getName(), i.getPrice()))
                        .toList(),
                variableDrafts(c),
                c.getVersion().getValue());
    }

    private static VariablesDraft variablesOf(Configurator c) {
        return new VariablesDraft(c.getId(), c.getName(), variableDrafts(c));
    }

    private static List<VariableDraft> variableDrafts(Configurator c) {
        return c.getVariables().stream()
                .map(v -> new VariableDraft(v.getId(), v.getName(), v.getType(), v.getValue()))
                .toList();
    }

    private static FiltersDraft filtersOf(ConfiguratorItem item) {
        Configurator c = item.getConfigurator();
        return new FiltersDraft(
                item.getId(),
                item.getName(),
                c.getId(),
                c.getName(),
                item.getFilters().stream().map(ItemFilter::getRule).toList());
    }
}
