/**
 * The screens: one backing bean per screen, named after it (list, editors, read-only view,
 * dashboard, history, login, the header), with the rows, tables, paging and sentences they show.
 * What keeps them live is in {@code com.editlock.live}.
 */
package com.editlock.web;
