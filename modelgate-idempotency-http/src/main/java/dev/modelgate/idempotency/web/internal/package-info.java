/**
 * What the servlet, reactive and gateway adapters share: the HTTP decision and its machinery. Not an
 * API: it may change in any release.
 */
@NullMarked
package dev.modelgate.idempotency.web.internal;

import org.jspecify.annotations.NullMarked;
