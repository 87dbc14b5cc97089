package dev.modelgate.idempotency.web.internal;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.IdempotencyListener;
import dev.modelgate.idempotency.core.internal.DecisionReporter;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.KeyedRequestSettings;
import dev.modelgate.idempotency.web.StreamSettings;

/**
 * The Idempotency-Key decision for HTTP, written once for every web stack: from the key header, the
 * client identity, the body's fingerprint, the endpoint's settings and the store's answer to one
 * {@link HttpAction}, with every decision reported (listeners, metrics, the transitions log) from
 * here. The servlet filter, the WebFlux filter and the gateway route filter read the request their
 * way, ask a {@link RequestDecision} at each step, and carry out what it answers.
 *
 * <p>The steps, in order: {@link RequestDecision#key key}, {@link RequestDecision#identify identity}, the body (read
 * by the adapter; {@link RequestDecision#bodyRefused} when it cannot be), {@link RequestDecision#scope scope}, the
 * store's {@code begin} ({@link RequestDecision#began}, or {@link RequestDecision#storeFailed}), then what the action
 * needs. A duplicate of a running stream: {@link HttpAction#ATTACH} (the follower cap is counted
 * here), then {@link RequestDecision#notFollowed} when there is no stream yet, which answers
 * {@link HttpAction.AskAgain} until {@link StreamSettings#headWait()} runs out; the adapter asks
 * {@code begin} again with {@link RequestDecision#waitTimeout()}. A replayed stream:
 * {@link RequestDecision#streamFollowed}. A run: {@link RequestDecision#settlement}.
 */
public final class HttpDecision {

	/**
	 * The request header with which a Server-Sent Events client resumes: the last event id it saw.
	 * Not part of the fingerprint.
	 */
	public static final String LAST_EVENT_ID = "Last-Event-ID";

	private final KeyedRequestSettings settings;

	private volatile DecisionReporter reporter = DecisionReporter.silent();

	private volatile StreamSettings streams = StreamSettings.DEFAULTS;

	private final FollowerCounts followers = new FollowerCounts();

	private volatile @Nullable StatusResource statusResource;

	/**
	 * @param settings the global settings
	 */
	public HttpDecision(KeyedRequestSettings settings) {
		this.settings = settings;
	}

	/** {@return the global settings} */
	public KeyedRequestSettings settings() {
		return this.settings;
	}

	/**
	 * Listeners told of every decision (metrics, audit), called in order.
	 * @param listeners the listeners
	 */
	public void setListeners(List<? extends IdempotencyListener> listeners) {
		this.reporter = DecisionReporter.of(listeners);
	}

	/**
	 * Limits of recorded streams: how many follow one, how long a duplicate waits for one to begin.
	 * @param streams the settings; {@link StreamSettings#DEFAULTS} unless set
	 */
	public void setStreamSettings(StreamSettings streams) {
		this.streams = streams;
	}

	/** {@return the stream settings} */
	public StreamSettings streamSettings() {
		return this.streams;
	}

	/**
	 * Turns the status resource on (a duplicate's 409 carries its {@code Location}) or off.
	 * @param path where it lives within the application, such as {@code /idempotency-status}, or
	 * {@code null} (the default) for none
	 */
	public void setStatusPath(@Nullable String path) {
		this.statusResource = (path != null) ? new StatusResource(this, path) : null;
	}

	/** {@return the status resource}, or {@code null} when it is off */
	public @Nullable StatusResource statusResource() {
		return this.statusResource;
	}

	/** {@return how many duplicates follow each live stream on this instance} */
	FollowerCounts followerCounts() {
		return this.followers;
	}

	/**
	 * {@return how many duplicates follow the scope's stream on this instance now}
	 * @param scope the stream's scope
	 */
	public int followers(String scope) {
		return this.followers.count(scope);
	}

	/** {@return where decisions are reported} */
	public DecisionReporter reporter() {
		return this.reporter;
	}

	/**
	 * Whether a request bound for an endpoint that does not require a key can skip the decision: it
	 * has no key and nothing follows the decisions (each such request is a {@code BYPASSED} one).
	 * @param keyHeader the first value of the key header, or {@code null}
	 * @return {@code true} when running the handler directly is what the decision would do
	 */
	public boolean canSkip(@Nullable String keyHeader) {
		return keyHeader == null && !this.reporter.isFollowed();
	}

	/**
	 * Starts the decision for one request bound for an idempotent endpoint.
	 * @param method the HTTP method
	 * @param endpoint the endpoint's settings
	 * @return the request's decision
	 */
	public RequestDecision start(String method, IdempotentEndpoint endpoint) {
		return new RequestDecision(this, method, endpoint, System.nanoTime());
	}

	/**
	 * {@return the {@code Retry-After} value of a problem: whole seconds, at least one}
	 * @param retryAfter the problem's hint
	 */
	public static String retryAfterSeconds(Duration retryAfter) {
		long seconds = retryAfter.toSeconds() + ((retryAfter.toNanosPart() > 0) ? 1 : 0);
		return Long.toString(Math.max(1, seconds));
	}

}
