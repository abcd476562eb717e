/** Who is looking at what: viewers of a record, shown on its pages, never blocking an edit. */
package com.editlock.presence;
