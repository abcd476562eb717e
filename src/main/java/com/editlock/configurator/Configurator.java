package com.editlock.configurator;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OneToOne;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import java.util.ArrayList;
import java.util.List;

/** The root of the aggregate. */
@Entity
@Table(name = "configurator")
public class Configurator {

    @Id private Long id;

    @OneToOne(fetch = FetchType.EAGER, optional = false)
    @JoinColumn(name = "version_id")
    private AggregateVersion version;

    @Column(nullable = false, length = 120)
    private String name;

    @Column(nullable = false, length = 2000)
    private String description;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    private ConfiguratorStatus status;

    @OneToMany(mappedBy = "configurator", cascade = CascadeType.ALL, orphanRemoval = true)
    @OrderBy("position")
    private List<ConfiguratorItem> items = new ArrayList<>();

    @OneToMany(mappedBy = "configurator", cascade = CascadeType.ALL, orphanRemoval = true)
    @OrderBy("name")
    private List<ConfiguratorVariable> variables = new ArrayList<>();

    public Long getId() {
        return id;
    }

    public AggregateVersion getVersion() {
        return version;
    }

    public String getName() {
        return name;
    }

    void setName(String name) {
        this.name = name;
    }

    public String getDescription() {
        return description;
    }

    void setDescription(String description) {
        this.description = description;
    }

    public ConfiguratorStatus getStatus() {
        return status;
    }

    void setStatus(ConfiguratorStatus status) {
        this.status = status;
    }

    public List<ConfiguratorItem> getItems() {
        return items;
    }

    public List<ConfiguratorVariable> getVariables() {
        return variables;
    }
}
