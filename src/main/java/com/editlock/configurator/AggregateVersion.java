package com.editlock.configurator;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/**
 * The shared version token of one aggregate; every save of any member bumps it with an
 * expected-value check.
 */
@Entity
@Table(name = "aggregate_version")
public class AggregateVersion {

    @Id private Long id;

    @Column(nullable = false)
    private long value;

    @Column(name = "modified_by")
    private String modifiedBy;

    @Column(name = "modified_at", nullable = false)
    private OffsetDateTime modifiedAt;

    public Long getId() {
        return id;
    }

    public long getValue() {
        return value;
    }

    public String getModifiedBy() {
        return modifiedBy;
    }

    public OffsetDateTime getModifiedAt() {
        return modifiedAt;
    }
}
