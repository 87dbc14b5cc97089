package dev.modelgate.sample.stream;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * The relay and its threads. The app targets Java 17, so no virtual threads: a bounded pool, one
 * thread per stream, no queue (a stream waiting in a queue would look to its client like a hung one).
 */
@Configuration(proxyBeanMethods = false)
class StreamConfiguration {

	@Bean
	ThreadPoolTaskExecutor streamExecutor(StreamProperties properties) {
		ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
		executor.setThreadNamePrefix("chat-stream-");
		executor.setCorePoolSize(properties.getMaxConcurrent());
		executor.setMaxPoolSize(properties.getMaxConcurrent());
		executor.setQueueCapacity(0);
		executor.setAllowCoreThreadTimeOut(true);
		return executor;
	}

	@Bean
	StreamRelay streamRelay(ThreadPoolTaskExecutor streamExecutor, StreamProperties properties) {
		return new StreamRelay(streamExecutor, properties.getTimeout());
	}

}
