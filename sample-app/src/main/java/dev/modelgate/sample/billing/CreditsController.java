package dev.modelgate.sample.billing;

import dev.modelgate.sample.ClientIdentity;

import java.util.Map;

import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/** Shows the caller its balance, to see that a retried request was charged once. */
@RestController
class CreditsController {

	private final CreditLedger ledger;

	CreditsController(CreditLedger ledger) {
		this.ledger = ledger;
	}

	@GetMapping("/v1/credits")
	Map<String, Object> balance(@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization) {
		return Map.of("object", "credit_balance", "balance", this.ledger.balance(ClientIdentity.of(authorization)));
	}

}
