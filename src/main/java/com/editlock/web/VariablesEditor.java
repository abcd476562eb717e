package com.editlock.web;

import com.editlock.configurator.ConfiguratorService;
import com.editlock.configurator.Editing;
import com.editlock.configurator.VariablesDraft;
import com.editlock.lock.Lock;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockRequest;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.List;
import java.util.Optional;

/** The variables screen of one configurator, under its own sub-page lock. */
@Named
@ViewScoped
public class VariablesEditor extends LockedEditor<VariablesDraft> {

    private static final long serialVersionUID = 1L;

    @Inject ConfiguratorService configurators;

    private String id;
    private String configuratorName;
    private final VariableTable variables = new VariableTable();

    @Override
    protected Optional<LockKey> key() {
        return Screen.id(id).map(LockKey::variables);
    }

    @Override
    protected Editing<VariablesDraft> open(LockRequest request) {
        return configurators.openVariables(request);
    }

    @Override
    protected Optional<VariablesDraft> currentValues() {
        return key().flatMap(k -> configurators.currentVariables(k.id()));
    }

    @Override
    protected void edit(VariablesDraft d) {
        configuratorName = d.configuratorName();
        variables.load(d.variables());
    }

    @Override
    protected void write(Lock held) {
        configurators.saveVariables(
                held, new VariablesDraft(held.key().id(), configuratorName, variables.drafts()));
    }

    @Override
    protected String title() {
        return reader.say("variables.of", configuratorName);
    }

    @Override
    protected String returnOutcome() {
        return "configurators";
    }

    public List<VariableRow> getCurrentVariables() {
        return getCurrent() == null ? List.of() : VariableTable.rowsOf(getCurrent().variables());
    }

    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    public String getConfiguratorName() {
        return configuratorName;
    }

    public VariableTable getVariables() {
        return variables;
    }
}
