package com.editlock.web;

import com.editlock.configurator.ConfiguratorService;
import com.editlock.configurator.ConfiguratorSummary;
import com.editlock.lock.Lock;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockManager;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The configurator list: every configurator with who is editing it. */
@Named
@RequestScoped
public class ConfiguratorList {

    /** One line of the list. (A class, not a record: Jakarta EL 5 reads bean getters only.) */
    public static final class Row {
        private final ConfiguratorSummary configurator;
        private final String lockState;
        private final boolean locked;

        Row(ConfiguratorSummary configurator, String lockState, boolean locked) {
            this.configurator = configurator;
            this.lockState = lockState;
            this.locked = locked;
        }

        public long getId() {
            return configurator.id();
        }

        public String getName() {
            return configurator.name();
        }

        public String getStatus() {
            return configurator.status().name();
        }

        public int getItemCount() {
            return configurator.itemCount();
        }

        public String getLockState() {
            return lockState;
        }

        public boolean isLocked() {
            return locked;
        }
    }

    @Inject Viewpoint reader;

    @Inject ConfiguratorService configurators;

    @Inject LockManager locks;

    /**
     * The list shows at most this many configurators (by name); a note says when there are more.
     */
    static final int SHOWN_MAX = 500;

    private List<Row> rows;
    private boolean more;

    @PostConstruct
    void load() {
        List<ConfiguratorSummary> shown =
                new java.util.ArrayList<>(configurators.list(SHOWN_MAX + 1));
        more = shown.size() > SHOWN_MAX;
        if (more) {
            shown.remove(SHOWN_MAX);
        }
        Map<Long, List<Lock>> byAggregate =
                locks
                        .locksIn(shown.stream().map(c -> LockKey.configurator(c.id())).toList())
                        .stream()
                        .collect(Collectors.groupingBy(l -> l.aggregate().id()));
        LockSentences sentences = new LockSentences(reader);
        rows =
                shown.stream()
                        .map(
                                c -> {
                                    List<Lock> held = byAggregate.getOrDefault(c.id(), List.of());
                                    return new Row(c, sentences.listState(held), !held.isEmpty());
                                })
                        .toList();
    }

    public List<Row> getRows() {
        return rows;
    }

    public boolean isMore() {
        return more;
    }

    public int getShownMax() {
        return SHOWN_MAX;
    }
}
