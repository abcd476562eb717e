/** The screens: one backing bean per screen, named after it. */
package com.editlock.web;
