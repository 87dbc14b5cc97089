package dev.modelgate.consumers.slice;

import java.util.UUID;

import org.springframework.stereotype.Service;

/** Places orders; the slice tests replace it with a mock, as a controller test usually does. */
@Service
public class OrderService {

	public Order place(OrderRequest request) {
		return new Order(UUID.randomUUID().toString(), request.item(), request.quantity());
	}

	public record OrderRequest(String item, int quantity) {
	}

	public record Order(String id, String item, int quantity) {
	}

}
