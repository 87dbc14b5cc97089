package dev.modelgate.reliability;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tag;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

import dev.modelgate.reliability.support.Answer;
import dev.modelgate.reliability.support.ChatRequests;
import dev.modelgate.reliability.support.CountingUpstream;
import dev.modelgate.reliability.support.RawRequest;
import dev.modelgate.reliability.support.RedisServer;
import dev.modelgate.reliability.support.Report;
import dev.modelgate.reliability.support.SampleApp;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 5, bad input: generated requests, sent as raw bytes to a gateway on Redis, whatever an
 * HTTP client would refuse to send. Every answer must be a 2xx that names the request's own nonce
 * (never another request's response) or a 4xx error with a code; never a 5xx. Only a request that
 * breaks HTTP itself may instead be refused by the container or have its connection closed. A
 * replayed answer must be, byte for byte, an earlier answer to the same client, key and body.
 *
 * <p>Each property runs {@code jqwik.tries.default} tries (the build's {@code reliability.tries}).
 */
@Tag("process")
class BadInputTests {

	private static final String RUN = ChatRequests.newTag("bad-input");

	private static final String BROKEN_HTTP = "broken HTTP";

	private static final AtomicInteger nonces = new AtomicInteger();

	/** Earlier answers that were not replays, per client and key, to judge replays by. */
	private static final Map<String, List<Sent>> history = new ConcurrentHashMap<>();

	private static final Map<String, Map<String, Integer>> outcomes = new ConcurrentHashMap<>();

	private static CountingUpstream upstream;

	private static RedisServer redis;

	private static SampleApp gateway;

	@BeforeContainer
	static void startGateway() {
		upstream = CountingUpstream.start();
		redis = RedisServer.start("bad-input");
		gateway = SampleApp.builder("bad-input", "gateway").store(redis).upstream(upstream).start();
	}

	@AfterContainer
	static void reportAndStop() {
		try {
			StringBuilder report = new StringBuilder("""
					Generated requests sent as raw bytes to one gateway on Redis. Outcome counts per property (status, and the error code where there is one).

					| property | requests | outcomes |
					|---|---|---|
					""");
			int total = 0;
			for (Map.Entry<String, Map<String, Integer>> property : new TreeMap<>(outcomes).entrySet()) {
				int count = property.getValue().values().stream().mapToInt(Integer::intValue).sum();
				total += property.getKey().contains(": ") ? 0 : count;
				report.append("| ").append(property.getKey()).append(" | ").append(count).append(" | ")
					.append(new TreeMap<>(property.getValue()).toString().replace("{", "").replace("}", ""))
					.append(" |\n");
			}
			report.append("\nTotal: ").append(total).append(" requests, ").append(upstream.calls())
				.append(" upstream calls.\n");
			Report.write("bad-input", report.toString());
		}
		finally {
			if (gateway != null) {
				gateway.close();
			}
			if (redis != null) {
				redis.close();
			}
			if (upstream != null) {
				upstream.close();
			}
		}
	}

	@Property(shrinking = ShrinkingMode.BOUNDED, generation = GenerationMode.RANDOMIZED)
	void anyKeyHeaderIsServedOrRefusedWithAnError(@ForAll("keyHeaders") RawRequest request) {
		check("key header values", request);
	}

	@Property(shrinking = ShrinkingMode.BOUNDED, generation = GenerationMode.RANDOMIZED)
	void anyHeaderCombinationIsServedOrRefusedWithAnError(@ForAll("headerCombinations") RawRequest request) {
		check("header combinations", request);
	}

	@Property(shrinking = ShrinkingMode.BOUNDED, generation = GenerationMode.RANDOMIZED)
	void anyBodyIsServedOrRefusedWithAnError(@ForAll("bodies") RawRequest request) {
		check("bodies", request);
	}

	@Property(shrinking = ShrinkingMode.BOUNDED, generation = GenerationMode.RANDOMIZED)
	void anyMultipartBodyIsRefusedWithAnError(@ForAll("multipartBodies") RawRequest request) {
		check("multipart bodies", request);
	}

	@Property(shrinking = ShrinkingMode.BOUNDED, generation = GenerationMode.RANDOMIZED)
	void reusedKeysGetTheirOwnRequestsAnswerOrARefusal(@ForAll("reusedKeys") RawRequest request) {
		check("reused keys", request);
	}

	@Property(shrinking = ShrinkingMode.BOUNDED, generation = GenerationMode.RANDOMIZED)
	void brokenHttpNeverGetsA5xx(@ForAll("brokenHttp") RawRequest request) {
		check(BROKEN_HTTP, request);
	}

	private static void check(String property, RawRequest request) {
		Answer answer = request.send(gateway.port());
		String outcome = (answer.status() < 0) ? "closed"
				: answer.status() + ((answer.code() != null) ? " " + answer.code() : "") + (answer.isReplay() ? " replayed" : "");
		outcomes.computeIfAbsent(property, (p) -> new ConcurrentHashMap<>()).merge(outcome, 1, Integer::sum);
		if (property.equals(BROKEN_HTTP)) {
			// What the container does with each kind of broken request is worth its own line.
			outcomes.computeIfAbsent(property + ": " + request.kind(), (p) -> new ConcurrentHashMap<>())
				.merge(outcome, 1, Integer::sum);
		}
		Statistics.label("outcome").collect(outcome);
		assertThat(violation(request, answer)).as("%s\n→ %s", request, answer).isNull();
	}

	/** What is wrong with {@code answer} to {@code request}, or {@code null} when nothing is. */
	static String violation(RawRequest request, Answer answer) {
		if (answer.status() < 0) {
			return (request.isWellFormed() && !request.isCutShort()) ? "no answer" : null;
		}
		if (answer.status() >= 500) {
			return (answer.status() == request.allowedStatus()) ? null : "a server error";
		}
		if (answer.isReplay()) {
			return replayViolation(request, answer);
		}
		remember(request, answer);
		if (answer.status() >= 200 && answer.status() < 300) {
			if (request.nonce() == null) {
				return "success for a request that cannot succeed";
			}
			return ChatRequests.answers(answer.body(), request.nonce()) ? null : "another request's response";
		}
		if (answer.status() >= 400 && answer.status() < 500) {
			return (!request.isWellFormed() || answer.code() != null) ? null : "a client error without an error code";
		}
		return "an unexpected status";
	}

	private static String replayViolation(RawRequest request, Answer answer) {
		List<Sent> earlier = history.getOrDefault(identity(request), List.of());
		boolean matches = earlier.stream()
			.anyMatch((sent) -> Arrays.equals(sent.body(), request.body()) && Arrays.equals(sent.answer(), answer.body()));
		return matches ? null : "a replay that is no earlier answer to the same client, key and body";
	}

	private static void remember(RawRequest request, Answer answer) {
		history.computeIfAbsent(identity(request), (k) -> new ArrayList<>())
			.add(new Sent(request.body(), answer.body()));
	}

	private static String identity(RawRequest request) {
		return request.authorization() + "\n" + request.idempotencyKey();
	}

	// Generators -----------------------------------------------------------------------------------

	@Provide
	Arbitrary<RawRequest> keyHeaders() {
		Arbitrary<String> anyText = Arbitraries.strings().all().ofMaxLength(300);
		Arbitrary<String> visible = Arbitraries.strings().withCharRange('!', '~').ofMinLength(1).ofMaxLength(300);
		Arbitrary<String> quoted = visible.map((key) -> "\"" + key.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
		Arbitrary<String> padded = visible.map((key) -> " \t" + key + "\t ");
		Arbitrary<String> listed = Combinators.combine(visible, visible).as((a, b) -> a + "," + b);
		Arbitrary<String> limit = Arbitraries.of(254, 255, 256).map((length) -> fresh("k").repeat(20).substring(0, length));
		Arbitrary<String> value = Arbitraries.frequencyOf(
				Tuple.of(3, anyText), Tuple.of(3, visible), Tuple.of(2, quoted),
				Tuple.of(1, padded), Tuple.of(1, listed), Tuple.of(1, limit));
		Arbitrary<Integer> headerCount = Arbitraries.frequency(Tuple.of(8, 1), Tuple.of(1, 2), Tuple.of(1, 3));
		return Combinators.combine(value, headerCount, Arbitraries.of(true, false))
			.as((key, copies, latin1) -> {
				String nonce = fresh("key");
				RawRequest request = new RawRequest().header("Content-Type", "application/json")
					.authorization("Bearer sk-bad-input")
					.body(chat(nonce), nonce)
					.describe("key " + printable(key) + ((copies > 1) ? " sent " + copies + " times" : "")
							+ (latin1 ? " as ISO-8859-1" : " as UTF-8"));
				byte[] bytes = key.getBytes(latin1 ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
				for (int i = 0; i < copies; i++) {
					request.idempotencyKey(key, bytes);
				}
				return breaksHttp(bytes) ? request.malformed() : request;
			});
	}

	@Provide
	Arbitrary<RawRequest> headerCombinations() {
		Arbitrary<String> contentType = Arbitraries.of("application/json", "application/json; charset=utf-8",
				"application/json; charset=ISO-8859-1", "application/json; charset=bogus", "APPLICATION/JSON",
				"application/vnd.modelgate+json", "text/plain", "application/x-www-form-urlencoded",
				"multipart/form-data; boundary=x", "application/json, text/plain", "///", "", "none", "twice");
		Arbitrary<String> authorization = Arbitraries.of("none", "", "Bearer a", "Bearer b", "long", "non-ascii");
		Arbitrary<String> accept = Arbitraries.of("none", "*/*", "application/json", "text/plain", "application/xml",
				"application/json;q=0", "garbage/");
		Arbitrary<String> key = Arbitraries.of("none", "fresh", "quoted", "empty", "twice", "comma", "lowercase-name");
		Arbitrary<String> framing = Arbitraries.of("length", "chunked", "expect-continue", "gzip-label", "fault-header");
		return Combinators.combine(contentType, authorization, accept, key, framing).as((type, auth, acc, k, frame) -> {
			String nonce = fresh("headers");
			RawRequest request = new RawRequest().body(chat(nonce), nonce)
				.describe("content-type " + type + ", authorization " + auth + ", accept " + acc + ", key " + k + ", " + frame);
			switch (type) {
				case "none" -> { }
				case "twice" -> request.header("Content-Type", "application/json").header("Content-Type", "text/plain");
				default -> request.header("Content-Type", type);
			}
			switch (auth) {
				case "none" -> { }
				case "long" -> request.authorization("Bearer " + "x".repeat(4000));
				case "non-ascii" -> request.authorization("Bearer clé-ключ-鍵");
				default -> request.authorization(auth);
			}
			if (!acc.equals("none")) {
				request.header("Accept", acc);
			}
			String freshKey = fresh("hk");
			switch (k) {
				case "fresh" -> request.idempotencyKey(freshKey);
				case "quoted" -> request.idempotencyKey("\"" + freshKey + "\"");
				case "empty" -> request.idempotencyKey("");
				case "twice" -> request.idempotencyKey(freshKey).idempotencyKey(freshKey);
				case "comma" -> request.idempotencyKey(freshKey + "," + freshKey);
				case "lowercase-name" -> request.idempotencyKey(freshKey, "idempotency-key");
				default -> { }
			}
			switch (frame) {
				case "chunked" -> request.chunked();
				case "expect-continue" -> request.header("Expect", "100-continue");
				case "gzip-label" -> request.header("Content-Encoding", "gzip");
				case "fault-header" -> request.header("X-ModelGate-Fault", "after-record");
				default -> { }
			}
			return request;
		});
	}

	@Provide
	Arbitrary<RawRequest> bodies() {
		Arbitrary<BodyCase> cases = Arbitraries.frequencyOf(Tuple.of(4, valid()),
				Tuple.of(3, extraMembers()), Tuple.of(3, truncated()),
				Tuple.of(3, invalidUtf8()), Tuple.of(2, deepNesting()),
				Tuple.of(2, duplicateMembers()), Tuple.of(3, extremeNumbers()),
				Tuple.of(2, notAnObject()), Tuple.of(2, randomBytes()),
				Tuple.of(1, huge()));
		return Combinators.combine(cases, Arbitraries.of(true, true, false), Arbitraries.of(false, false, false, true))
			.as((body, keyed, chunked) -> {
				RawRequest request = new RawRequest().header("Content-Type", "application/json")
					.authorization("Bearer sk-bad-input")
					.body(body.bytes(), body.nonce())
					.describe(body.description());
				if (keyed) {
					request.idempotencyKey(fresh("bk")).describe("keyed");
				}
				if (chunked) {
					request.chunked().describe("chunked");
				}
				return request;
			});
	}

	@Provide
	Arbitrary<RawRequest> multipartBodies() {
		Arbitrary<String> kind = Arbitraries.of("well-formed", "no closing boundary", "no boundary parameter",
				"other boundary", "cut mid-part", "empty", "file part", "huge part");
		return Combinators.combine(kind, Arbitraries.integers().between(1, 3), Arbitraries.of(true, false))
			.as((what, parts, keyed) -> {
				String nonce = fresh("mp");
				String boundary = "----modelgate" + nonce;
				StringBuilder body = new StringBuilder();
				for (int i = 0; i < parts; i++) {
					body.append("--").append(boundary).append("\r\n");
					if (what.equals("file part")) {
						body.append("Content-Disposition: form-data; name=\"file").append(i)
							.append("\"; filename=\"a.json\"\r\nContent-Type: application/json\r\n\r\n");
					}
					else {
						body.append("Content-Disposition: form-data; name=\"part").append(i).append("\"\r\n\r\n");
					}
					body.append(what.equals("huge part") ? "p".repeat(1_200_000) : new String(chat(nonce), StandardCharsets.UTF_8))
						.append("\r\n");
				}
				String text = switch (what) {
					case "no closing boundary" -> body.toString();
					case "cut mid-part" -> body.substring(0, Math.max(1, body.length() / 2));
					case "empty" -> "";
					default -> body + "--" + boundary + "--\r\n";
				};
				String type = switch (what) {
					case "no boundary parameter" -> "multipart/form-data";
					case "other boundary" -> "multipart/form-data; boundary=somethingelse";
					default -> "multipart/form-data; boundary=" + boundary;
				};
				RawRequest request = new RawRequest().header("Content-Type", type)
					.authorization("Bearer sk-bad-input")
					.body(text.getBytes(StandardCharsets.UTF_8), null)
					.describe("multipart " + what + ", " + parts + " parts");
				return keyed ? request.idempotencyKey(fresh("mk")).describe("keyed") : request;
			});
	}

	@Provide
	Arbitrary<RawRequest> reusedKeys() {
		// Few keys, clients and bodies, so that the same key meets the same and other bodies often:
		// two valid bodies, one the gateway refuses (a 400 that is recorded), one the cache answers.
		Arbitrary<Integer> key = Arbitraries.integers().between(0, 3);
		Arbitrary<String> client = Arbitraries.of("Bearer reuse-a", "Bearer reuse-b");
		Arbitrary<Integer> variant = Arbitraries.integers().between(0, 3);
		return Combinators.combine(key, client, variant).as((k, auth, v) -> {
			String nonce = RUN + "-reuse-" + k + "-" + v;
			byte[] body = switch (v) {
				case 2 -> ("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"@@" + nonce + "@@\"}]")
					.getBytes(StandardCharsets.UTF_8);
				case 3 -> ("{\"model\":\"stub-model\",\"temperature\":0,\"messages\":[{\"role\":\"user\",\"content\":\"@@"
						+ nonce + "@@\"}]}").getBytes(StandardCharsets.UTF_8);
				default -> chat(nonce);
			};
			return new RawRequest().header("Content-Type", "application/json")
				.authorization(auth)
				.idempotencyKey(RUN + "-reused-" + k)
				.body(body, (v == 2) ? null : nonce)
				.describe("key " + k + " from " + auth + " with body " + v);
		});
	}

	@Provide
	Arbitrary<RawRequest> brokenHttp() {
		Arbitrary<String> kind = Arbitraries.of("header without colon", "control byte in a value", "NUL in a value",
				"bare CR in a value", "space in a header name", "length and chunked", "two lengths", "negative length",
				"non-numeric length", "huge length", "bad chunk size", "header over 8KB", "URI over 8KB",
				"bad percent-encoding", "HTTP/1.0", "unknown version", "lower-case method", "announced body cut short",
				"chunked body cut short", "absolute-form URI");
		return Combinators.combine(kind, Arbitraries.of(true, false)).as((what, keyed) -> {
			String nonce = fresh("broken");
			RawRequest request = new RawRequest().header("Content-Type", "application/json")
				.authorization("Bearer sk-bad-input")
				.body(chat(nonce), nonce)
				.describe(what)
				.malformed();
			if (keyed) {
				request.idempotencyKey(fresh("hk")).describe("keyed");
			}
			switch (what) {
				case "header without colon" -> request.headerLine("X-No-Colon".getBytes(StandardCharsets.ISO_8859_1));
				case "control byte in a value" -> request.header("X-Test", new byte[] { 'a', 0x01, 'b' });
				case "NUL in a value" -> request.header("X-Test", new byte[] { 'a', 0x00, 'b' });
				case "bare CR in a value" -> request.header("X-Test", new byte[] { 'a', '\r', 'b' });
				case "space in a header name" -> request.header("X Test", "a");
				case "length and chunked" -> request.header("Content-Length", "3").chunked();
				case "two lengths" -> request.header("Content-Length", "1");
				case "negative length" -> request.header("Content-Length", "-5").unframed();
				case "non-numeric length" -> request.header("Content-Length", "abc").unframed();
				case "huge length" -> request.header("Content-Length", "99999999999999999999999").unframed();
				case "bad chunk size" -> request.header("Transfer-Encoding", "chunked")
					.body("zz\r\nabc\r\n0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), null)
					.unframed();
				case "header over 8KB" -> request.header("X-Big", "b".repeat(9000));
				case "URI over 8KB" -> request.requestLine("POST /v1/chat/completions?" + "q".repeat(9000) + " HTTP/1.1");
				case "bad percent-encoding" -> request.requestLine("POST /v1/chat/completions?x=%zz%G1 HTTP/1.1");
				case "HTTP/1.0" -> request.requestLine("POST /v1/chat/completions HTTP/1.0");
				// RFC 9110 (15.6.6) makes this the one 5xx a client can cause: 505 Version Not Supported.
				case "unknown version" -> request.requestLine("POST /v1/chat/completions HTTP/7.3").allowStatus(505);
				case "lower-case method" -> request.requestLine("post /v1/chat/completions HTTP/1.1");
				case "announced body cut short" -> request.declaredLength(request.body().length + 500).cutShort();
				case "chunked body cut short" -> request.chunked().cutShort();
				case "absolute-form URI" -> request.requestLine("POST http://127.0.0.1/v1/chat/completions HTTP/1.1");
				default -> throw new IllegalStateException(what);
			}
			return request;
		});
	}

	// Bodies ---------------------------------------------------------------------------------------

	private static Arbitrary<BodyCase> valid() {
		return Arbitraries.just(null).map((ignored) -> {
			String nonce = fresh("body");
			return new BodyCase("valid chat", chat(nonce), nonce);
		});
	}

	private static Arbitrary<BodyCase> extraMembers() {
		return jsonValues(4).map((value) -> {
			String nonce = fresh("body");
			return new BodyCase("extra member " + abbreviate(value), withMember(nonce, "\"extra\":" + value), nonce);
		});
	}

	private static Arbitrary<BodyCase> truncated() {
		return Combinators.combine(jsonValues(3), Arbitraries.doubles().between(0, 0.999).ofScale(3)).as((value, fraction) -> {
			byte[] full = withMember(fresh("body"), "\"extra\":" + value);
			int length = (int) (full.length * fraction);
			return new BodyCase("truncated at " + length + " of " + full.length, Arrays.copyOf(full, length), null);
		});
	}

	private static Arbitrary<BodyCase> invalidUtf8() {
		Arbitrary<byte[]> bad = Arbitraries.of(new byte[] { (byte) 0xFF }, new byte[] { (byte) 0xC3, 0x28 },
				new byte[] { (byte) 0xED, (byte) 0xA0, (byte) 0x80 }, new byte[] { (byte) 0xC0, (byte) 0x80 },
				new byte[] { (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80 }, new byte[] { (byte) 0xE2, (byte) 0x82 });
		return bad.map((bytes) -> {
			String nonce = fresh("body");
			ByteArrayOutputStream body = new ByteArrayOutputStream();
			body.writeBytes(("{\"model\":\"stub-model\",\"messages\":[{\"role\":\"user\",\"content\":\"@@" + nonce + "@@ ")
				.getBytes(StandardCharsets.UTF_8));
			body.writeBytes(bytes);
			body.writeBytes("\"}]}".getBytes(StandardCharsets.UTF_8));
			return new BodyCase("invalid UTF-8 " + Arrays.toString(bytes), body.toByteArray(), nonce);
		});
	}

	private static Arbitrary<BodyCase> deepNesting() {
		return Combinators.combine(Arbitraries.integers().between(1, 20_000), Arbitraries.of("[", "{\"a\":"))
			.as((depth, open) -> {
				String close = open.equals("[") ? "]" : "}";
				String nonce = fresh("body");
				String nested = open.repeat(depth) + "1" + close.repeat(depth);
				return new BodyCase("nesting " + depth + " deep", withMember(nonce, "\"metadata\":" + nested), nonce);
			});
	}

	private static Arbitrary<BodyCase> duplicateMembers() {
		return Arbitraries.of("model", "messages", "stream", "temperature").map((name) -> {
			String nonce = fresh("body");
			String first = switch (name) {
				case "model" -> "\"model\":\"other\"";
				case "messages" -> "\"messages\":[{\"role\":\"user\",\"content\":\"@@" + nonce + "@@\"}]";
				case "stream" -> "\"stream\":true";
				default -> "\"temperature\":0";
			};
			// The same member again after the valid body: readers disagree about which one counts.
			String body = "{" + first + "," + new String(chat(nonce), StandardCharsets.UTF_8).substring(1);
			return new BodyCase("duplicate " + name, body.getBytes(StandardCharsets.UTF_8), nonce);
		});
	}

	private static Arbitrary<BodyCase> extremeNumbers() {
		Arbitrary<String> number = Arbitraries.of("1e999999", "-1e999999", "1e-999999", "0e999999999", "-0.0", "-0",
				"123456789012345678901234567890", "1.00000000000000000000000001", "9".repeat(1000), "1" + "0".repeat(1001),
				"0.1e-2147483648", "NaN", "Infinity", "1e", "01", "+1", ".5", "0x10");
		Arbitrary<String> member = Arbitraries.of("temperature", "temperature", "top_p", "n", "max_tokens", "extra");
		return Combinators.combine(member, number).as((name, value) -> {
			String nonce = fresh("body");
			return new BodyCase(name + " = " + abbreviate(value), withMember(nonce, "\"" + name + "\":" + value), nonce);
		});
	}

	private static Arbitrary<BodyCase> notAnObject() {
		return Arbitraries.of("", " ", "null", "[]", "[{}]", "\"text\"", "1", "true", "{}", "{\"model\":\"m\"}",
				"{\"model\":\"m\",\"messages\":[]}", "\uFEFF{}", "{\"model\":\"m\",\"messages\":[1]}")
			.map((text) -> new BodyCase("not a chat request: " + printable(text), text.getBytes(StandardCharsets.UTF_8), null));
	}

	private static Arbitrary<BodyCase> randomBytes() {
		return Arbitraries.bytes().array(byte[].class).ofMaxSize(2000)
			.map((bytes) -> new BodyCase("random bytes", bytes, null));
	}

	private static Arbitrary<BodyCase> huge() {
		return Arbitraries.integers().between(200_000, 2_400_000).map((size) -> {
			String nonce = fresh("body");
			return new BodyCase("padded to " + size + " bytes", withMember(nonce, "\"padding\":\"" + "a".repeat(size) + "\""),
					nonce);
		});
	}

	/** Arbitrary JSON values up to {@code depth}, with awkward strings and numbers. */
	private static Arbitrary<String> jsonValues(int depth) {
		Arbitrary<String> strings = Arbitraries.strings().all().ofMaxLength(40).map(BadInputTests::jsonString);
		Arbitrary<String> escapes = Arbitraries.of("\"\\ud800\"", "\"\\udfff\\ud800\"", "\"\\u0000\"", "\"\\\\\"",
				"\"\\/\"", "\"\\b\\f\\n\\r\\t\"", "\"\\uFFFF\"");
		Arbitrary<String> numbers = Arbitraries.of("0", "-0", "1.5e300", "-1e-300", "1e999999", "12345678901234567890");
		Arbitrary<String> leaves = Arbitraries.oneOf(strings, escapes, numbers, Arbitraries.of("true", "false", "null"));
		if (depth == 0) {
			return leaves;
		}
		Arbitrary<String> arrays = jsonValues(depth - 1).list().ofMaxSize(4).map((items) -> "[" + String.join(",", items) + "]");
		Arbitrary<String> objects = Combinators.combine(strings, jsonValues(depth - 1))
			.as((name, value) -> name + ":" + value)
			.list()
			.ofMaxSize(4)
			.map((members) -> "{" + String.join(",", members) + "}");
		return Arbitraries.oneOf(leaves, arrays, objects);
	}

	// Helpers --------------------------------------------------------------------------------------

	private static String fresh(String prefix) {
		return RUN + "-" + prefix + "-" + nonces.incrementAndGet();
	}

	private static byte[] chat(String nonce) {
		return ChatRequests.request(nonce).getBytes(StandardCharsets.UTF_8);
	}

	/** A valid chat request with one more member before the others. */
	private static byte[] withMember(String nonce, String member) {
		return ("{" + member + "," + ChatRequests.request(nonce).substring(1)).getBytes(StandardCharsets.UTF_8);
	}

	private static String jsonString(String text) {
		StringBuilder json = new StringBuilder("\"");
		for (char c : text.toCharArray()) {
			if (c == '"' || c == '\\' || c < 0x20) {
				json.append(String.format("\\u%04x", (int) c));
			}
			else {
				json.append(c);
			}
		}
		return json.append('"').toString();
	}

	/** Whether a header value with these bytes breaks HTTP/1.1 (control characters other than tab). */
	private static boolean breaksHttp(byte[] value) {
		for (byte b : value) {
			if ((b >= 0 && b < 0x20 && b != '\t') || b == 0x7F) {
				return true;
			}
		}
		return false;
	}

	private static String printable(String text) {
		StringBuilder out = new StringBuilder();
		text.codePoints().limit(60).forEach((c) -> out.append((c >= 0x20 && c < 0x7F) ? Character.toString(c)
				: String.format("\\u%04x", c)));
		return "'" + out + ((text.length() > 60) ? "...' (" + text.length() + " chars)" : "'");
	}

	private static String abbreviate(String text) {
		return (text.length() > 40) ? text.substring(0, 40) + "... (" + text.length() + " chars)" : text;
	}

	/** A generated body, the nonce a successful answer must name ({@code null}: none may succeed). */
	record BodyCase(String description, byte[] bytes, String nonce) {
	}

	/** A request body and the answer it got, when that answer was not a replay. */
	record Sent(byte[] body, byte[] answer) {
	}

}
