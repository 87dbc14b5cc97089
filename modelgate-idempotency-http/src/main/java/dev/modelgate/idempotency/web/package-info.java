/**
 * The HTTP pieces every web adapter shares, free of the servlet API and of Spring MVC and WebFlux:
 * endpoint settings, problems, the replay allowlist, the record/release policy, the recorded
 * response format, Server-Sent Events framing and stream limits. The package is split with
 * {@code modelgate-idempotency-webmvc}, which holds the servlet filter in the same package.
 */
@NullMarked
package dev.modelgate.idempotency.web;

import org.jspecify.annotations.NullMarked;
