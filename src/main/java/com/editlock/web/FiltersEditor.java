package com.editlock.web;

import com.editlock.configurator.ConfiguratorService;
import com.editlock.configurator.Editing;
import com.editlock.configurator.FiltersDraft;
import com.editlock.lock.Lock;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockRequest;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The filter rules of one item, under the item's filters lock: two people may edit two items'
 * filters at once.
 */
@Named
@ViewScoped
public class FiltersEditor extends LockedEditor<FiltersDraft> {

    private static final long serialVersionUID = 1L;

    @Inject ConfiguratorService configurators;

    private String id;
    private String itemName;
    private String configuratorName;
    private long configuratorId;
    private final List<FilterRow> rules = new ArrayList<>();

    @Override
    protected Optional<LockKey> key() {
        return Screen.id(id).map(LockKey::itemFilters);
    }

    @Override
    protected Editing<FiltersDraft> open(LockRequest request) {
        return configurators.openFilters(request);
    }

    @Override
    protected Optional<FiltersDraft> currentValues() {
        return key().flatMap(k -> configurators.currentFilters(k.id()));
    }

    @Override
    protected void edit(FiltersDraft d) {
        itemName = d.itemName();
        configuratorName = d.configuratorName();
        configuratorId = d.configuratorId();
        rules.clear();
        d.rules().forEach(r -> rules.add(new FilterRow(r)));
    }

    @Override
    protected void write(Lock held) {
        configurators.saveFilters(
                held,
                new FiltersDraft(
                        held.key().id(),
                        itemName,
                        configuratorId,
                        configuratorName,
                        rules.stream().map(FilterRow::getRule).toList()));
    }

    @Override
    protected String clientIdOf(String field) {
        return super.clientIdOf(field) + (field.startsWith("rules[") ? ":rule" : "");
    }

    @Override
    protected String title() {
        return reader.say("filters.of", itemName);
    }

    @Override
    protected String returnOutcome() {
        return "configurators";
    }

    public void addRule() {
        rules.add(new FilterRow(""));
    }

    public void removeRule(FilterRow row) {
        rules.remove(row);
    }

    public void moveRuleUp(FilterRow row) {
        Rows.moveUp(rules, row);
    }

    public void moveRuleDown(FilterRow row) {
        Rows.moveDown(rules, row);
    }

    public List<String> getCurrentRules() {
        return getCurrent() == null ? List.of() : getCurrent().rules();
    }

    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    public String getItemName() {
        return itemName;
    }

    public String getConfiguratorName() {
        return configuratorName;
    }

    public long getConfiguratorId() {
        return configuratorId;
    }

    public List<FilterRow> getRules() {
        return rules;
    }
}
