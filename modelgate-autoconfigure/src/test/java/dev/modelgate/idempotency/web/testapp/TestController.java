package dev.modelgate.idempotency.web.testapp;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.zip.CRC32;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RequestPart;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

import reactor.core.publisher.Flux;

import dev.modelgate.idempotency.Idempotent;

@RestController
class TestController {

	private final Invocations invocations;

	TestController(Invocations invocations) {
		this.invocations = invocations;
	}

	@PostMapping("/orders")
	@Idempotent
	ResponseEntity<Map<String, Object>> createOrder(@RequestBody Map<String, Object> order) {
		int run = this.invocations.increment("orders");
		return ResponseEntity.created(URI.create("/orders/" + run))
			.header("Set-Cookie", "session=secret")
			.header("X-Not-Replayed", "x")
			.header("ETag", "\"v" + run + "\"")
			.body(Map.of("order", run, "received", order));
	}

	@PostMapping("/spent-orders")
	@Idempotent(ttl = "1s", spentKeyRetention = "3s")
	ResponseEntity<Map<String, Object>> createSpentOrder(@RequestBody Map<String, Object> order) {
		int run = this.invocations.increment("spent-orders");
		return ResponseEntity.created(URI.create("/orders/" + run)).body(Map.of("order", run, "received", order));
	}

	@GetMapping("/plain")
	String plain() {
		return "plain " + this.invocations.increment("plain");
	}

	@PostMapping("/plain")
	String plainPost(@RequestBody(required = false) String body) {
		return "plain " + this.invocations.increment("plain");
	}

	@PostMapping("/items/{id}")
	@Idempotent
	String item(@PathVariable String id) {
		return "item " + id + " " + this.invocations.increment("item");
	}

	@PostMapping("/items/special")
	String special() {
		return "special " + this.invocations.increment("special");
	}

	@PostMapping("/required")
	@Idempotent(required = true)
	String required() {
		return "required " + this.invocations.increment("required");
	}

	@PostMapping("/status/{code}")
	@Idempotent
	ResponseEntity<String> status(@PathVariable int code) {
		int run = this.invocations.increment("status");
		return ResponseEntity.status(code).body("status " + code + " run " + run);
	}

	@PostMapping("/send-error/{code}")
	@Idempotent
	void sendError(@PathVariable int code, HttpServletResponse response) throws IOException {
		this.invocations.increment("send-error");
		response.sendError(code, "sent");
	}

	@PostMapping("/slow")
	@Idempotent
	String slow() throws InterruptedException {
		int run = this.invocations.increment("slow");
		this.invocations.awaitGate();
		return "slow " + run;
	}

	@PostMapping("/slow-spent")
	@Idempotent(ttl = "1s", spentKeyRetention = "1m")
	String slowSpent() throws InterruptedException {
		int run = this.invocations.increment("slow-spent");
		this.invocations.awaitGate();
		return "slow-spent " + run;
	}

	@PostMapping("/slow-wait")
	@Idempotent(inProgress = Idempotent.InProgress.WAIT)
	String slowWait() throws InterruptedException {
		int run = this.invocations.increment("slow-wait");
		this.invocations.awaitGate();
		return "slow-wait " + run;
	}

	@PostMapping("/slow-reject")
	@Idempotent(inProgress = Idempotent.InProgress.REJECT)
	String slowReject() throws InterruptedException {
		int run = this.invocations.increment("slow-reject");
		this.invocations.awaitGate();
		return "slow-reject " + run;
	}

	@PostMapping("/short-ttl")
	@Idempotent(ttl = "1s")
	String shortTtl() throws InterruptedException {
		int run = this.invocations.increment("short-ttl");
		this.invocations.awaitGate();
		return "short-ttl " + run;
	}

	@PostMapping("/short-lease")
	@Idempotent(leaseTtl = "600ms")
	String shortLease() throws InterruptedException {
		int run = this.invocations.increment("short-lease");
		this.invocations.awaitGate();
		return "short-lease " + run;
	}

	@PostMapping("/big")
	@Idempotent
	void big(@RequestParam int size, HttpServletResponse response) throws IOException {
		this.invocations.increment("big");
		response.setContentType(MediaType.APPLICATION_OCTET_STREAM_VALUE);
		byte[] chunk = new byte[8192];
		for (int written = 0; written < size; written += chunk.length) {
			response.getOutputStream().write(chunk, 0, Math.min(chunk.length, size - written));
		}
	}

	@PostMapping("/throws")
	@Idempotent
	String throwsException() {
		this.invocations.increment("throws");
		throw new IllegalStateException("boom");
	}

	@PostMapping("/sse")
	@Idempotent
	SseEmitter sse() throws IOException {
		this.invocations.increment("sse");
		SseEmitter emitter = new SseEmitter();
		emitter.send("one");
		emitter.complete();
		return emitter;
	}

	/**
	 * Streams {@code count} events from another thread, like a model generating: waits at the gate after
	 * event {@code gateAfter} (0: never), and ends with an error when {@code fail}; each event's data
	 * carries {@code pad} more bytes when asked (a large stream). With
	 * {@code gateFirst}, the handler itself waits at the gate before its stream begins, like a model that
	 * thinks (or an upstream that takes its time) before its first token; with {@code failFirstRun}
	 * too, the first such run then fails before its stream begins. Counts the runs under
	 * "events", the events sent under "events-sent" and the sends or ends the emitter refused under
	 * "events-refused".
	 */
	@PostMapping("/events")
	@Idempotent
	SseEmitter events(@RequestParam(defaultValue = "5") int count, @RequestParam(defaultValue = "0") int gateAfter,
			@RequestParam(defaultValue = "false") boolean fail, @RequestParam(defaultValue = "false") boolean gateFirst,
			@RequestParam(defaultValue = "false") boolean failFirstRun, @RequestParam(defaultValue = "0") int pad)
			throws InterruptedException {
		if (gateFirst) {
			this.invocations.increment("events-thinking");
			this.invocations.awaitGate();
			if (failFirstRun && this.invocations.count("events-thinking") == 1) {
				throw new IllegalStateException("the model failed before its first token");
			}
		}
		return generate(count, gateAfter, fail, pad);
	}

	/** One event, the gate, a second event: a duplicate meanwhile gets 409 rather than attaching. */
	@PostMapping("/events-no-attach")
	@Idempotent(attachToStream = false)
	SseEmitter eventsWithoutAttaching() {
		return generate(2, 1, false, 0);
	}

	private SseEmitter generate(int count, int gateAfter, boolean fail, int pad) {
		String padding = (pad > 0) ? ",\"pad\":\"" + "x".repeat(pad) + "\"" : "";
		this.invocations.increment("events");
		SseEmitter emitter = new SseEmitter(60_000L);
		Thread generation = new Thread(() -> {
			try {
				for (int i = 1; i <= count; i++) {
					emitter.send(SseEmitter.event().name("chunk").data("{\"n\":" + i + padding + "}"));
					this.invocations.increment("events-sent");
					if (i == gateAfter) {
						this.invocations.awaitGate();
					}
				}
				if (fail) {
					emitter.completeWithError(new IllegalStateException("generation failed"));
				}
				else {
					emitter.complete();
				}
			}
			catch (IOException | IllegalStateException ex) {
				this.invocations.increment("events-refused");
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, "test-generation");
		generation.start();
		return emitter;
	}

	/** {@code count} events written and flushed one by one by a {@link StreamingResponseBody}. */
	@PostMapping("/events-body")
	@Idempotent
	ResponseEntity<StreamingResponseBody> eventsFromStreamingBody(@RequestParam(defaultValue = "5") int count) {
		this.invocations.increment("events-body");
		StreamingResponseBody body = (out) -> {
			for (int i = 1; i <= count; i++) {
				out.write(("event:chunk\ndata:{\"n\":" + i + "}\n\n").getBytes(StandardCharsets.UTF_8));
				out.flush();
			}
		};
		return ResponseEntity.ok().contentType(MediaType.TEXT_EVENT_STREAM).body(body);
	}

	/** {@code count} pre-formatted events sent from another thread by a {@link ResponseBodyEmitter}. */
	@PostMapping("/events-emitter")
	@Idempotent
	ResponseEntity<ResponseBodyEmitter> eventsFromEmitter(@RequestParam(defaultValue = "5") int count) {
		this.invocations.increment("events-emitter");
		ResponseBodyEmitter emitter = new ResponseBodyEmitter(60_000L);
		Thread generation = new Thread(() -> {
			try {
				for (int i = 1; i <= count; i++) {
					emitter.send("event:chunk\ndata:{\"n\":" + i + "}\n\n", MediaType.TEXT_PLAIN);
				}
				emitter.complete();
			}
			catch (IOException | IllegalStateException ex) {
				this.invocations.increment("events-refused");
			}
		}, "test-emitter-generation");
		generation.start();
		return ResponseEntity.ok().contentType(MediaType.TEXT_EVENT_STREAM).body(emitter);
	}

	/** {@code count} events as a {@code Flux<ServerSentEvent<String>>} returned from a Spring MVC handler. */
	@PostMapping(path = "/events-flux", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	@Idempotent
	Flux<ServerSentEvent<String>> eventsFromFlux(@RequestParam(defaultValue = "5") int count) {
		this.invocations.increment("events-flux");
		return Flux.range(1, count).map((i) -> ServerSentEvent.builder("{\"n\":" + i + "}").event("chunk").build());
	}

	/** Bytes that are not events, streamed by a {@link StreamingResponseBody}: passed through, not recorded. */
	@PostMapping("/octets")
	@Idempotent
	ResponseEntity<StreamingResponseBody> octets() {
		this.invocations.increment("octets");
		StreamingResponseBody body = (out) -> {
			out.write("octets".getBytes(StandardCharsets.UTF_8));
			out.flush();
		};
		return ResponseEntity.ok().contentType(MediaType.APPLICATION_OCTET_STREAM).body(body);
	}

	/**
	 * Reads the body on Spring MVC's async thread, after the filter has returned: the buffered body
	 * must still be there. Answers its length and a checksum.
	 */
	@PostMapping("/callable-body")
	@Idempotent
	Callable<String> callableBody(HttpServletRequest request) {
		this.invocations.increment("callable-body");
		return () -> {
			byte[] body = request.getInputStream().readAllBytes();
			CRC32 crc = new CRC32();
			crc.update(body);
			return body.length + " " + crc.getValue();
		};
	}

	/** A {@link DeferredResult} set from another thread: passed through, not recorded. */
	@PostMapping("/deferred")
	@Idempotent
	DeferredResult<String> deferred() {
		this.invocations.increment("deferred");
		DeferredResult<String> result = new DeferredResult<>(60_000L);
		new Thread(() -> result.setResult("deferred"), "test-deferred").start();
		return result;
	}

	@PostMapping("/streaming")
	@Idempotent
	StreamingResponseBody streaming() {
		this.invocations.increment("streaming");
		return (out) -> out.write("streamed".getBytes(StandardCharsets.UTF_8));
	}

	@PostMapping(path = "/form", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
	@Idempotent
	String form(@RequestParam String name, @RequestParam(required = false) String city) {
		return "form " + name + " " + city + " " + this.invocations.increment("form");
	}

	@PostMapping(path = "/upload", consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
	@Idempotent
	String upload(@RequestPart("file") MultipartFile file, @RequestParam String label) throws IOException {
		return "upload " + label + " " + file.getOriginalFilename() + " " + file.getBytes().length + " "
				+ this.invocations.increment("upload");
	}

	@PostMapping("/reader")
	@Idempotent
	String reader(HttpServletRequest request) throws IOException {
		StringBuilder body = new StringBuilder();
		request.getReader().lines().forEach(body::append);
		String again = new String(request.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		return "reader " + body + " | " + again + " " + this.invocations.increment("reader");
	}

	@PostMapping("/ignore")
	@Idempotent(ignoreFields = { "/meta/trace", "/sent_at" })
	String ignore(@RequestBody String body) {
		return "ignore " + this.invocations.increment("ignore");
	}

	@PostMapping("/binary")
	@Idempotent
	ResponseEntity<byte[]> binary() {
		this.invocations.increment("binary");
		byte[] body = new byte[256];
		for (int i = 0; i < body.length; i++) {
			body[i] = (byte) i;
		}
		return ResponseEntity.ok().contentType(MediaType.APPLICATION_OCTET_STREAM).body(body);
	}

	@PostMapping("/proceed")
	@Idempotent(onStoreFailure = Idempotent.StoreFailure.PROCEED)
	String proceed() {
		return "proceed " + this.invocations.increment("proceed");
	}

	@PostMapping("/scoped-a")
	@Idempotent(scope = "shared")
	String scopedA(@RequestBody String body) {
		return "scoped " + this.invocations.increment("scoped");
	}

	@PostMapping("/redirect")
	@Idempotent
	void redirect(HttpServletResponse response) throws IOException {
		this.invocations.increment("redirect");
		response.sendRedirect("/orders/42");
	}

	@PostMapping("/query")
	@Idempotent
	String query(@RequestParam Map<String, String> params) {
		return "query " + this.invocations.increment("query");
	}

}
