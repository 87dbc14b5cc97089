package dev.modelgate.sample.billing;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Balances in memory, for the offline default profile. */
public class InMemoryCreditLedger implements CreditLedger {

	private final Map<String, Long> balances = new ConcurrentHashMap<>();

	@Override
	public void charge(String client, long credits) {
		this.balances.merge(client, OPENING_BALANCE - credits, (balance, opening) -> balance - credits);
	}

	@Override
	public long balance(String client) {
		return this.balances.getOrDefault(client, OPENING_BALANCE);
	}

}
