package dev.modelgate.idempotency.web.reactive;

import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

import dev.modelgate.idempotency.core.IdempotencyContext;

/**
 * A run under a held lease, which goes on when its client leaves, as a servlet handler does: a client
 * that gives up while a model thinks (before the response has a head) must not cancel the one
 * execution its retry will attach to or replay, nor release the key for the retry to run it again.
 *
 * <p>The handler is subscribed apart from the client, with the client's context and the attempt (for
 * the handler's downstream calls, {@code DerivedIdempotencyKeyFilter}, as the servlet adapter binds it
 * to the thread). When it ends, a response it did not write is settled as an empty body; when it
 * fails, the key is released (unless its answer is a stream, which settles itself) and the failure
 * goes to the client, if the client is still there. The client is told when all that is done; the
 * decision is reported once, when the client is told or leaves.
 *
 * <p>One subscriber does what took a handful of operators (then, defer, error resume, create, a
 * lambda subscriber, doFinally) on every keyed request.
 */
final class DetachedRun extends Mono<Void> {

	private final Mono<Void> handler;

	private final CapturedResponse response;

	private final ReactiveSettlement settlement;

	private final Runnable responded;

	/**
	 * @param handler the handler's answer, written to {@code response}
	 * @param response the response held back
	 * @param settlement the run's settlement
	 * @param responded reports the decision's response, called once
	 */
	DetachedRun(Mono<Void> handler, CapturedResponse response, ReactiveSettlement settlement, Runnable responded) {
		this.handler = handler;
		this.response = response;
		this.settlement = settlement;
		this.responded = responded;
	}

	@Override
	public void subscribe(CoreSubscriber<? super Void> client) {
		Run run = new Run(client, client.currentContext().put(IdempotencyContext.CONTEXT_KEY,
				this.settlement.lease().held()));
		client.onSubscribe(run);
		this.handler.subscribe(run);
	}

	/** Subscribes to the handler for the run, and is the client's subscription, which only notes a leave. */
	private final class Run implements CoreSubscriber<Void>, Subscription {

		private final CoreSubscriber<? super Void> client;

		private final Context context;

		private final AtomicBoolean reported = new AtomicBoolean();

		private volatile boolean clientGone;

		Run(CoreSubscriber<? super Void> client, Context context) {
			this.client = client;
			this.context = context;
		}

		@Override
		public Context currentContext() {
			return this.context;
		}

		@Override
		public void onSubscribe(Subscription subscription) {
			subscription.request(Long.MAX_VALUE);
		}

		@Override
		public void onNext(Void nothing) {
		}

		@Override
		public void onComplete() {
			Mono<Void> settled = DetachedRun.this.response.settleIfUnwritten();
			if (settled == Mono.<Void>empty()) {
				end(null);
			}
			else {
				settled.subscribe(null, this::failed, () -> end(null), this.context);
			}
		}

		@Override
		public void onError(Throwable failure) {
			failed(failure);
		}

		private void failed(Throwable failure) {
			if (DetachedRun.this.settlement.isStreaming()) {
				end(failure);
				return;
			}
			DetachedRun.this.settlement.release("the handler threw " + failure.getClass().getName())
				.subscribe(null, (releaseFailure) -> end(failure), () -> end(failure), this.context);
		}

		/** Tells the client, unless it is gone (a failure, writing to the closed connection, has nobody to go to). */
		private void end(@Nullable Throwable failure) {
			if (!this.clientGone) {
				if (failure != null) {
					this.client.onError(failure);
				}
				else {
					this.client.onComplete();
				}
			}
			report();
		}

		private void report() {
			if (this.reported.compareAndSet(false, true)) {
				DetachedRun.this.responded.run();
			}
		}

		@Override
		public void request(long n) {
		}

		@Override
		public void cancel() {
			this.clientGone = true;
			report();
		}

	}

}
