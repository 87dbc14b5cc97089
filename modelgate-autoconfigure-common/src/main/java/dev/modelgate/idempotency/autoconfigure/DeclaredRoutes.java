package dev.modelgate.idempotency.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.web.servlet.DeclaredRoute;
import dev.modelgate.idempotency.web.servlet.IdempotentRoute;

/**
 * The {@code modelgate.idempotency.routes} of the configuration as the filter takes them. The
 * properties' own checks have already refused what cannot work, each with its property's name.
 */
final class DeclaredRoutes {

	private DeclaredRoutes() {
	}

	static List<DeclaredRoute> of(List<ModelgateIdempotencyProperties.Route> routes) {
		List<DeclaredRoute> declared = new ArrayList<>(routes.size());
		for (ModelgateIdempotencyProperties.Route route : routes) {
			declared.add(DeclaredRoute.of(route.getMethod(), route.getPath(), settings(route)));
		}
		return declared;
	}

	private static IdempotentRoute settings(ModelgateIdempotencyProperties.Route route) {
		return IdempotentRoute.idempotent()
			.scope((route.getScope() != null) ? route.getScope() : "")
			.required(route.isRequired())
			.ttl(route.getTtl())
			.leaseTtl(route.getLeaseTtl())
			.inProgress(inProgress(route.getInProgress()))
			.ignoreFields(route.getIgnoreFields().toArray(new String[0]))
			.onStoreFailure((route.getOnStoreFailure() == ModelgateIdempotencyProperties.StoreFailure.PROCEED)
					? Idempotent.StoreFailure.PROCEED : Idempotent.StoreFailure.REJECT)
			.attachToStream(route.isAttachToStream());
	}

	private static Idempotent.InProgress inProgress(ModelgateIdempotencyProperties.InProgress inProgress) {
		if (inProgress == null) {
			return Idempotent.InProgress.DEFAULT;
		}
		return (inProgress == ModelgateIdempotencyProperties.InProgress.WAIT) ? Idempotent.InProgress.WAIT
				: Idempotent.InProgress.REJECT;
	}

}
