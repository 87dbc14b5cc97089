package dev.modelgate.idempotency.benchmarks.stream;

import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.modelgate.idempotency.Idempotent;

/**
 * A server that streams like an LLM gateway of small chunks: {@code count} events of about 100
 * bytes, sent one by one from a generation thread (each {@code send} flushes), {@code pauseMillis}
 * apart (0: as fast as it can).
 * {@code /stream} is {@code @Idempotent}, {@code /stream/plain} the same handler unannotated. Its
 * {@link SimpleMeterRegistry} holds the library's meters, read by the load generator to count the
 * store round trips.
 */
@SpringBootApplication(proxyBeanMethods = false)
public class StreamBenchmarkApplication {

	/** One event's data: about 100 bytes, like a chat-completion chunk of a few tokens. */
	static final String CHUNK = "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a few tokens of the answer\"}}],\"n\":";

	@Bean
	MeterRegistry meterRegistry() {
		return new SimpleMeterRegistry();
	}

	@Bean(destroyMethod = "shutdownNow")
	ExecutorService generations() {
		return Executors.newCachedThreadPool();
	}

	/** The two endpoints, one handler; found by the component scan. */
	@RestController
	static class StreamController {

		private final ExecutorService generations;

		StreamController(ExecutorService generations) {
			this.generations = generations;
		}

		@PostMapping("/stream")
		@Idempotent
		SseEmitter recorded(@RequestParam int count, @RequestParam(defaultValue = "0") long pauseMillis) {
			return generate(count, pauseMillis);
		}

		@PostMapping("/stream/plain")
		SseEmitter plain(@RequestParam int count, @RequestParam(defaultValue = "0") long pauseMillis) {
			return generate(count, pauseMillis);
		}

		private SseEmitter generate(int count, long pauseMillis) {
			SseEmitter emitter = new SseEmitter(60_000L);
			this.generations.execute(() -> {
				try {
					for (int i = 1; i <= count; i++) {
						if (pauseMillis > 0) {
							Thread.sleep(pauseMillis);
						}
						emitter.send(SseEmitter.event().data(CHUNK + i + "}"));
					}
					emitter.complete();
				}
				catch (IOException | RuntimeException ex) {
					emitter.completeWithError(ex);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					emitter.completeWithError(ex);
				}
			});
			return emitter;
		}

	}

}
