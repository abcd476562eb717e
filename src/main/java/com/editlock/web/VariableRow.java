package com.editlock.web;

import com.editlock.configurator.VariableDraft;
import com.editlock.configurator.VariableType;
import java.io.Serializable;

/** One editable variable row (a bean: Faces inputs need setters). */
public class VariableRow implements Serializable {

    private static final long serialVersionUID = 1L;

    private Long id;
    private String name;
    private VariableType type = VariableType.TEXT;
    private String value;

    static VariableRow of(VariableDraft d) {
        VariableRow row = new VariableRow();
        row.id = d.id();
        row.name = d.name();
        row.type = d.type();
        row.value = d.value();
        return row;
    }

    VariableDraft draft() {
        return new VariableDraft(id, name, type, value);
    }

    public Long getId() {
        return id;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public VariableType getType() {
        return type;
    }

    public void setType(VariableType type) {
        this.type = type;
    }

    public String getValue() {
        return value;
    }

    public void setValue(String value) {
        this.value = value;
    }
}
