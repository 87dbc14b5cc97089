package dev.modelgate.sample.faults;

import dev.modelgate.sample.billing.CreditLedger;

/**
 * Wraps the credit ledger (its transactional proxy, so a charge has committed when it returns) so
 * that a request can stop right after its charge, before the idempotency filter records anything.
 */
final class FaultInjectingLedger implements CreditLedger {

	private final CreditLedger delegate;

	FaultInjectingLedger(CreditLedger delegate) {
		this.delegate = delegate;
	}

	@Override
	public void charge(String client, long credits) {
		this.delegate.charge(client, credits);
		RequestedFault.pauseIfRequested(FaultPoint.AFTER_CHARGE);
	}

	@Override
	public long balance(String client) {
		return this.delegate.balance(client);
	}

}
