package com.editlock.web;

import java.io.Serializable;

/** One editable filter rule. */
public class FilterRow implements Serializable {

    private static final long serialVersionUID = 1L;

    private String rule;

    FilterRow(String rule) {
        this.rule = rule;
    }

    public String getRule() {
        return rule;
    }

    public void setRule(String rule) {
        this.rule = rule;
    }
}
