package com.editlock.configurator;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

/** One filter rule of an item, in order. */
@Entity
@Table(name = "item_filter")
public class ItemFilter {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "item_id")
    private ConfiguratorItem item;

    @Column(name = "version_id", nullable = false)
    private Long versionId;

    @Column(nullable = false)
    private int position;

    @Column(nullable = false, length = 500)
    private String rule;

    protected ItemFilter() {}

    ItemFilter(ConfiguratorItem item, int position, String rule) {
        this.item = item;
        this.versionId = item.getVersionId();
        this.position = position;
        this.rule = rule;
    }

    public Long getId() {
        return id;
    }

    public int getPosition() {
        return position;
    }

    public String getRule() {
        return rule;
    }
}
