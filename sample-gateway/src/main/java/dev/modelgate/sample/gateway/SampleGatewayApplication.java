package dev.modelgate.sample.gateway;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * The sample gateway's chat route on Spring Cloud Gateway: {@code POST /v1/chat/completions} routed
 * to an OpenAI-compatible upstream, with the {@code Idempotency} filter on the route.
 */
@SpringBootApplication
@EnableConfigurationProperties(ProviderProperties.class)
public class SampleGatewayApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleGatewayApplication.class, args);
	}

}
