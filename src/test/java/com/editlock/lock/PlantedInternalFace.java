package com.editlock.lock;

/**
 * Test fixture: a face of the lock package that offers the store's own machinery (a bulk renewal),
 * which the layering test must refuse.
 */
interface PlantedInternalFace {
    int[] renew(java.util.List<Beat> beats);
}
