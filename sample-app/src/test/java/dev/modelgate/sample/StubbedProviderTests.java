package dev.modelgate.sample;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Base of the tests that run the gateway against the {@link UpstreamStub}. Subclasses add no
 * configuration, so they all share one application context.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.provider.api-key=test-provider-key", "modelgate.provider.timeout=1s" })
abstract class StubbedProviderTests {

	static final UpstreamStub upstream = UpstreamStub.shared();

	@LocalServerPort
	int port;

	GatewayClient gateway;

	@DynamicPropertySource
	static void upstreamProvider(DynamicPropertyRegistry registry) {
		registry.add("modelgate.provider.base-url", upstream::baseUrl);
	}

	@BeforeEach
	void resetUpstream() {
		upstream.reset();
		this.gateway = new GatewayClient(this.port);
	}

}
