package dev.modelgate.sample.stream;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The relay of streamed completions, with its limits.
 */
@Configuration(proxyBeanMethods = false)
class StreamConfiguration {

	@Bean
	StreamRelay streamRelay(StreamProperties properties) {
		return new StreamRelay(properties.getMaxConcurrent(), properties.getTimeout());
	}

}
