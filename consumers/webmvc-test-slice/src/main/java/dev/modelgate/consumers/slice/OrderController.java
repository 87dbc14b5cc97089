package dev.modelgate.consumers.slice;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import dev.modelgate.consumers.slice.OrderService.Order;
import dev.modelgate.consumers.slice.OrderService.OrderRequest;
import dev.modelgate.idempotency.Idempotent;

/** One idempotent endpoint: a retry with the same Idempotency-Key must not place a second order. */
@RestController
public class OrderController {

	private final OrderService orders;

	public OrderController(OrderService orders) {
		this.orders = orders;
	}

	@PostMapping("/orders")
	@ResponseStatus(HttpStatus.CREATED)
	@Idempotent
	public Order create(@RequestBody OrderRequest request) {
		return this.orders.place(request);
	}

}
