package com.editlock.configurator;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * One item of a configurator; shares the configurator's version token. Its filter rules are a
 * sub-page.
 */
@Entity
@Table(name = "configurator_item")
public class ConfiguratorItem {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "configurator_id")
    private Configurator configurator;

    @Column(name = "version_id", nullable = false)
    private Long versionId;

    @Column(nullable = false)
    private int position;

    @Column(nullable = false, length = 120)
    private String name;

    @Column(nullable = false, precision = 12, scale = 2)
    private BigDecimal price;

    @OneToMany(mappedBy = "item", cascade = CascadeType.ALL, orphanRemoval = true)
    @OrderBy("position")
    private List<ItemFilter> filters = new ArrayList<>();

    protected ConfiguratorItem() {}

    ConfiguratorItem(Configurator configurator) {
        this.configurator = configurator;
        this.versionId = configurator.getVersion().getId();
    }

    public Long getId() {
        return id;
    }

    public Configurator getConfigurator() {
        return configurator;
    }

    public Long getVersionId() {
        return versionId;
    }

    public int getPosition() {
        return position;
    }

    void setPosition(int position) {
        this.position = position;
    }

    public String getName() {
        return name;
    }

    void setName(String name) {
        this.name = name;
    }

    public BigDecimal getPrice() {
        return price;
    }

    void setPrice(BigDecimal price) {
        this.price = price;
    }

    public List<ItemFilter> getFilters() {
        return filters;
    }
}
