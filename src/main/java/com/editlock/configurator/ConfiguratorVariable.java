package com.editlock.configurator;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

/** A named, typed value of a configurator; names are unique within one configurator. */
@Entity
@Table(name = "configurator_variable")
public class ConfiguratorVariable {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "configurator_id")
    private Configurator configurator;

    @Column(name = "version_id", nullable = false)
    private Long versionId;

    @Column(nullable = false, length = 120)
    private String name;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    private VariableType type;

    @Column(nullable = false, length = 500)
    private String value;

    protected ConfiguratorVariable() {}

    ConfiguratorVariable(Configurator configurator) {
        this.configurator = configurator;
        this.versionId = configurator.getVersion().getId();
    }

    public Long getId() {
        return id;
    }

    public String getName() {
        return name;
    }

    public VariableType getType() {
        return type;
    }

    public String getValue() {
        return value;
    }

    void update(VariableDraft draft) {
        this.name = draft.name().strip();
        this.type = draft.type();
        this.value = draft.value() == null ? "" : draft.value().strip();
    }
}
