/**
 * Spring Boot auto-configuration of the stores, the filter, the template and the annotations.
 */
@NullMarked
package dev.modelgate.idempotency.autoconfigure;

import org.jspecify.annotations.NullMarked;
