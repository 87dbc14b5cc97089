/**
 * Spring Boot auto-configuration of the stores, the filter, the template and the annotations, shared
 * by the Spring Boot 4 and 3.5 lines; each line's module adds what differs between them.
 */
@NullMarked
package dev.modelgate.idempotency.autoconfigure;

import org.jspecify.annotations.NullMarked;
