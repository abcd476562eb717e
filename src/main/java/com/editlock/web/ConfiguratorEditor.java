package com.editlock.web;

import com.editlock.configurator.ConfiguratorDraft;
import com.editlock.configurator.ConfiguratorService;
import com.editlock.configurator.ConfiguratorStatus;
import com.editlock.configurator.Editing;
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
 * The configurator screen: the whole aggregate (fields, items, variables) under the configurator's
 * lock.
 */
@Named
@ViewScoped
public class ConfiguratorEditor extends LockedEditor<ConfiguratorDraft> {

    private static final long serialVersionUID = 1L;

    @Inject ConfiguratorService configurators;

    private String id;
    private long version;
    private String name;
    private String description;
    private ConfiguratorStatus status;
    private final List<ItemRow> items = new ArrayList<>();
    private final VariableTable variables = new VariableTable();

    @Override
    protected Optional<LockKey> key() {
        return Screen.id(id).map(LockKey::configurator);
    }

    @Override
    protected Editing<ConfiguratorDraft> open(LockRequest request) {
        return configurators.openConfigurator(request);
    }

    @Override
    protected Optional<ConfiguratorDraft> currentValues() {
        return key().flatMap(k -> configurators.current(k.id()));
    }

    @Override
    protected void edit(ConfiguratorDraft d) {
        version = d.version();
        name = d.name();
        description = d.description();
        status = d.status();
        items.clear();
        d.items().forEach(i -> items.add(ItemRow.of(i)));
        variables.load(d.variables());
    }

    @Override
    protected void write(Lock held) {
        configurators.saveConfigurator(
                held,
                new ConfiguratorDraft(
                        held.key().id(),
                        name,
                        description,
                        status,
                        items.stream().map(ItemRow::draft).toList(),
                        variables.drafts(),
                        version));
    }

    @Override
    protected String title() {
        return name == null ? "" : name.strip();
    }

    @Override
    protected String returnOutcome() {
        return "configurators";
    }

    public void addItem() {
        items.add(new ItemRow());
    }

    public void removeItem(ItemRow row) {
        items.remove(row);
    }

    public void moveItemUp(ItemRow row) {
        Rows.moveUp(items, row);
    }

    public void moveItemDown(ItemRow row) {
        Rows.moveDown(items, row);
    }

    /**
     * The current values, shown read-only (Jakarta EL 5 cannot read record components, hence rows).
     */
    public List<ItemRow> getCurrentItems() {
        return getCurrent() == null
                ? List.of()
                : getCurrent().items().stream().map(ItemRow::of).toList();
    }

    public List<VariableRow> getCurrentVariables() {
        return getCurrent() == null ? List.of() : VariableTable.rowsOf(getCurrent().variables());
    }

    public String getCurrentName() {
        return getCurrent() == null ? "" : getCurrent().name();
    }

    public String getCurrentDescription() {
        return getCurrent() == null ? "" : getCurrent().description();
    }

    public String getCurrentStatus() {
        return getCurrent() == null ? "" : getCurrent().status().name();
    }

    public ConfiguratorStatus[] getStatuses() {
        return ConfiguratorStatus.values();
    }

    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
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

    public List<ItemRow> getItems() {
        return items;
    }

    public VariableTable getVariables() {
        return variables;
    }
}
