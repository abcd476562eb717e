package com.editlock.web;

import com.editlock.configurator.ItemDraft;
import java.io.Serializable;
import java.math.BigDecimal;

/** One editable item row. */
public class ItemRow implements Serializable {

    private static final long serialVersionUID = 1L;

    private Long id;
    private String name;
    private BigDecimal price = BigDecimal.ZERO;

    static ItemRow of(ItemDraft d) {
        ItemRow row = new ItemRow();
        row.id = d.id();
        row.name = d.name();
        row.price = d.price();
        return row;
    }

    ItemDraft draft() {
        return new ItemDraft(id, name, price);
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

    public BigDecimal getPrice() {
        return price;
    }

    public void setPrice(BigDecimal price) {
        this.price = price;
    }
}
