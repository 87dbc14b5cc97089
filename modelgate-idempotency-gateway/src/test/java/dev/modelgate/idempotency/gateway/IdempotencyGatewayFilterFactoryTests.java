package dev.modelgate.idempotency.gateway;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.cloud.gateway.filter.NettyWriteResponseFilter;
import org.springframework.cloud.gateway.filter.OrderedGatewayFilter;
import org.springframework.core.Ordered;

import dev.modelgate.idempotency.web.EndpointDefaults;
import dev.modelgate.idempotency.Idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The factory's name, shortcut, order and the checks of a route's settings; the filter's behaviour
 * over mock exchanges is in {@link IdempotencyGatewayFilterTests}, and through a real gateway route
 * in {@code sample-gateway}.
 */
class IdempotencyGatewayFilterFactoryTests {

	private final IdempotencyGatewayFilterFactory factory = new IdempotencyGatewayFilterFactory(null,
			new EndpointDefaults(Duration.ofHours(24), Duration.ofSeconds(30),
					Duration.ofSeconds(10), Idempotent.InProgress.REJECT));

	@Test
	void isNamedIdempotencyWithTheCommonArgumentsAsItsShortcut() {
		assertThat(this.factory.name()).isEqualTo("Idempotency");
		assertThat(this.factory.shortcutFieldOrder()).containsExactly("scope", "ttl", "required", "inProgress");
	}

	@Test
	void runsBeforeTheFilterThatWritesTheUpstreamBody() {
		Ordered filter = (OrderedGatewayFilter) this.factory.apply((config) -> {
		});

		assertThat(filter.getOrder()).isLessThan(NettyWriteResponseFilter.WRITE_RESPONSE_FILTER_ORDER);
	}

	@Test
	void refusesADurationThatIsNotOneAndNamesTheRoute() {
		IdempotencyGatewayFilterFactory.Config config = new IdempotencyGatewayFilterFactory.Config().setTtl("soon");
		config.setRouteId("chat");

		assertThatIllegalArgumentException().isThrownBy(() -> this.factory.apply(config))
			.withMessageContaining("route chat")
			.withMessageContaining("ttl 'soon' is not a duration");
	}

	@Test
	void refusesAnIgnoredFieldThatIsNotAJsonPointer() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.factory.apply((config) -> config.setIgnoreFields(java.util.List.of("user"))));
	}

}
