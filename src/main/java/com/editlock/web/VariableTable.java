package com.editlock.web;

import com.editlock.configurator.VariableDraft;
import com.editlock.configurator.VariableType;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/** The editable variables table that the configurator and the variables screens share. */
public class VariableTable implements Serializable {

    private static final long serialVersionUID = 1L;

    private final List<VariableRow> rows = new ArrayList<>();

    void load(List<VariableDraft> drafts) {
        rows.clear();
        drafts.forEach(d -> rows.add(VariableRow.of(d)));
    }

    List<VariableDraft> drafts() {
        return rows.stream().map(VariableRow::draft).toList();
    }

    static List<VariableRow> rowsOf(List<VariableDraft> drafts) {
        return drafts.stream().map(VariableRow::of).toList();
    }

    public void add() {
        rows.add(new VariableRow());
    }

    public void remove(VariableRow row) {
        rows.remove(row);
    }

    public List<VariableRow> getRows() {
        return rows;
    }

    public VariableType[] getTypes() {
        return VariableType.values();
    }
}
