/**
 * The HTTP decision, written once for every web stack and free of the servlet API, Spring MVC and
 * WebFlux: {@link dev.modelgate.idempotency.web.internal.HttpDecision} turns the key header, the client identity,
 * the body's fingerprint, the endpoint's settings and the store's answer into one
 * {@link dev.modelgate.idempotency.web.internal.HttpAction}, and reports every decision. Beside it, what the
 * adapters share: settings, endpoint settings, problems, the replay allowlist, the record/release
 * policy, the recorded response format, Server-Sent Events framing and stream limits. The servlet
 * adapter ({@code ...web.servlet}) and the reactive one ({@code ...web.reactive}) live in jars of their own.
 */
@NullMarked
package dev.modelgate.idempotency.web;

import org.jspecify.annotations.NullMarked;
