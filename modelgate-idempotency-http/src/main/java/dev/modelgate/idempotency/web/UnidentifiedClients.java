package dev.modelgate.idempotency.web;

import dev.modelgate.idempotency.web.internal.ClientIdentities;

/** What a keyed request gets when no client identity is found for it. */
public enum UnidentifiedClients {

	/** Answered 400 {@code idempotency_client_unidentified}: no client is answered with another's result. */
	REJECT,

	/**
	 * Put into the one {@link ClientIdentities#ANONYMOUS anonymous} key space that every unidentified
	 * client shares: one such client can be answered with another's result.
	 */
	SHARE,

	/** Run without idempotency protection, as if it had no key: a retry runs the handler again. */
	SKIP

}
