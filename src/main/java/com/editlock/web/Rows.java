package com.editlock.web;

import java.util.List;

/** Moving rows of an editable table. */
final class Rows {

    private Rows() {}

    static <T> void moveUp(List<T> rows, T row) {
        int i = rows.indexOf(row);
        if (i > 0) {
            rows.set(i, rows.get(i - 1));
            rows.set(i - 1, row);
        }
    }

    static <T> void moveDown(List<T> rows, T row) {
        int i = rows.indexOf(row);
        if (i >= 0 && i < rows.size() - 1) {
            rows.set(i, rows.get(i + 1));
            rows.set(i + 1, row);
        }
    }
}
