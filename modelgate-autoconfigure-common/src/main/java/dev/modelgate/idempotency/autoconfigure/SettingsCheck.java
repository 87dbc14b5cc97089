package dev.modelgate.idempotency.autoconfigure;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.http.HttpMethod;
import org.springframework.util.ClassUtils;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.Errors;
import org.springframework.web.util.pattern.PathPatternParser;
import org.springframework.web.util.pattern.PatternParseException;

import dev.modelgate.idempotency.core.internal.CanonicalBody;

/**
 * The checks of {@link ModelgateIdempotencyProperties}: each refusal names the property and the values
 * it takes, in words a reader of the start-up failure can act on without the documentation.
 */
final class SettingsCheck {

	/** RFC 9110 {@code token}: what a header name is made of. */
	private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+\\-.^_`|~0-9A-Za-z]+");

	/** The JDBC store's rule for its table name, which it writes into SQL text. */
	private static final Pattern TABLE_NAME = Pattern
		.compile("([A-Za-z_][A-Za-z0-9_]{0,62}\\.)?[A-Za-z_][A-Za-z0-9_]{0,62}");

	/** A status resource's path: literal segments only, since lookups are matched by prefix. */
	private static final Pattern STATUS_PATH = Pattern.compile("(/[A-Za-z0-9._~-]+)+");

	/** The statuses that tell a client to try again with the same key. */
	private static final Set<Integer> RETRY_STATUSES = Set.of(408, 409, 425, 429);

	private final ModelgateIdempotencyProperties properties;

	private final Errors errors;

	SettingsCheck(ModelgateIdempotencyProperties properties, Errors errors) {
		this.properties = properties;
		this.errors = errors;
	}

	void run() {
		ModelgateIdempotencyProperties p = this.properties;
		headerName("headerName", p.getHeaderName(), "Idempotency-Key");
		positive("keyMaxLength", p.getKeyMaxLength(), "a positive number of characters, such as 255");
		positive("ttl", p.getTtl(), "24h");
		positive("leaseTtl", p.getLeaseTtl(), "30s");
		if (p.getSpentKeyRetention() == null || p.getSpentKeyRetention().isNegative()) {
			reject("spentKeyRetention", "must be zero (keys are free once their answer expires) or a positive "
					+ "duration, such as 7d");
		}
		statusPath(p.getStatusPath());
		positive("retryAfter", p.getRetryAfter(), "1s");
		if (p.getWaitTimeout() == null || p.getWaitTimeout().isNegative()) {
			reject("waitTimeout", "must be zero (answer the 409 at once) or a positive duration, such as 10s");
		}
		positive("maxRequestSize", p.getMaxRequestSize(), "1MB");
		positive("maxResponseSize", p.getMaxResponseSize(), "1MB");
		positive("operationTimeout", p.getOperationTimeout(), "2s");
		clientIdentityHeader(p.getClientIdentityHeader());
		mismatchStatus(p.getMismatchStatus());
		headerName("replayedHeaderName", p.getReplayedHeaderName(), "Idempotent-Replayed");
		replayHeaders(p.getReplayHeaders());
		releaseStatuses(p.getReleaseStatuses());
		if (p.getRedis().getKeyPrefix() == null || p.getRedis().getKeyPrefix().isBlank()) {
			reject("redis.keyPrefix", "must not be blank, such as modelgate:idempotency:");
		}
		replicaAcknowledgements(p.getRedis(), p.getOperationTimeout());
		String table = p.getJdbc().getTableName();
		if (table == null || !TABLE_NAME.matcher(table).matches()) {
			reject("jdbc.tableName", "must be an unquoted SQL identifier (letters, digits and underscores, not "
					+ "starting with a digit, at most 63 characters), optionally schema.table, such as "
					+ "modelgate_idempotency");
		}
		positive("jdbc.purgeInterval", p.getJdbc().getPurgeInterval(), "5m");
		positive("memory.maxEntries", p.getMemory().getMaxEntries(), "a positive number of records, such as 10000");
		positive("memory.maxBytes", p.getMemory().getMaxBytes(), "64MB");
		positive("stream.maxEvents", p.getStream().getMaxEvents(), "a positive number of events, such as 10000");
		positive("stream.maxBytes", p.getStream().getMaxBytes(), "8MB");
		positive("stream.maxDuration", p.getStream().getMaxDuration(), "10m");
		positive("stream.pollInterval", p.getStream().getPollInterval(), "100ms");
		encryption(p.getEncryption());
		if (p.getRoutes() != null && !p.getRoutes().isEmpty()
				&& ClassUtils.isPresent("org.springframework.web.util.pattern.PathPatternParser", null)) {
			new RouteChecks().run(p.getRoutes());
		}
	}

	private void replicaAcknowledgements(ModelgateIdempotencyProperties.Redis redis,
			@Nullable Duration operationTimeout) {
		if (redis.getReplicaAcknowledgements() < 0) {
			reject("redis.replicaAcknowledgements", "must be 0 (wait for no replica, the default) or the number of "
					+ "replicas that must have each begin and complete, such as 1");
		}
		Duration timeout = redis.getReplicaAcknowledgementTimeout();
		positive("redis.replicaAcknowledgementTimeout", timeout, "500ms");
		if (redis.getReplicaAcknowledgements() > 0 && timeout != null && operationTimeout != null
				&& timeout.compareTo(operationTimeout) >= 0) {
			reject("redis.replicaAcknowledgementTimeout", "must be shorter than operation-timeout ("
					+ operationTimeout.toMillis() + "ms), which bounds the whole call: the script, the wait for "
					+ "replicas and the release of an unacknowledged begin; such as 500ms");
		}
	}

	private void clientIdentityHeader(@Nullable String header) {
		if (header == null) {
			return;
		}
		if (header.isBlank()) {
			reject("clientIdentityHeader", "is set but blank, which would put every unauthenticated client in one "
					+ "shared key space (one tenant replayed another's responses): set it to a header name, such "
					+ "as Authorization, or remove it");
		}
		else {
			headerName("clientIdentityHeader", header, "Authorization");
		}
	}

	private void mismatchStatus(int status) {
		if (status < 400 || status > 499 || RETRY_STATUSES.contains(status)) {
			reject("mismatchStatus", "must be a 4xx status (400-499) other than 408, 409, 425 and 429, such as 422 "
					+ "(the default) or 400: a key reused for another request is the client's mistake, which a "
					+ "retry does not fix, while 408, 409, 425 and 429 tell clients to retry with the same key "
					+ "(and 409 already answers a request still in progress)");
		}
	}

	private void releaseStatuses(@Nullable List<Integer> statuses) {
		if (statuses == null) {
			return;
		}
		List<Integer> invalid = statuses.stream()
			.filter((status) -> status == null || status < 400 || status > 599)
			.toList();
		if (!invalid.isEmpty()) {
			reject("releaseStatuses", "only takes 4xx/5xx statuses (400-599), such as 408,409,425,429 (the default), "
					+ "not " + invalid.stream().map(String::valueOf).collect(Collectors.joining(", "))
					+ ": successful and redirect responses are always recorded");
		}
	}

	private void replayHeaders(@Nullable List<String> headers) {
		if (headers == null) {
			return;
		}
		for (int i = 0; i < headers.size(); i++) {
			headerName("replayHeaders[" + i + "]", headers.get(i), "X-Request-Id");
		}
	}

	private void headerName(String field, @Nullable String name, String example) {
		if (name == null || !TOKEN.matcher(name).matches()) {
			reject(field, "must be an HTTP header name (letters, digits and !#$%&'*+-.^_`|~, no spaces), such as "
					+ example);
		}
	}

	private void positive(String field, @Nullable Duration duration, String example) {
		if (duration == null || duration.isNegative() || duration.isZero()) {
			reject(field, "must be a positive duration, such as " + example);
		}
	}

	private void positive(String field, @Nullable DataSize size, String example) {
		if (size == null || size.isNegative() || size.toBytes() == 0) {
			reject(field, "must be a positive size, such as " + example);
		}
	}

	private void positive(String field, int value, String allowed) {
		if (value <= 0) {
			reject(field, "must be " + allowed);
		}
	}

	/**
	 * The checks of {@code routes}, apart so that the web types they parse with are only loaded when
	 * routes are declared (the properties also serve applications without Spring Web).
	 */
	private final class RouteChecks {

		private static final Set<String> METHODS = Arrays.stream(HttpMethod.values())
			.map(HttpMethod::name)
			.collect(Collectors.toUnmodifiableSet());

		void run(List<ModelgateIdempotencyProperties.Route> routes) {
			Map<String, Integer> declared = new HashMap<>();
			for (int i = 0; i < routes.size(); i++) {
				ModelgateIdempotencyProperties.Route route = routes.get(i);
				String field = "routes[" + i + "]";
				String method = route.getMethod();
				boolean methodValid = method != null && METHODS.contains(method.trim().toUpperCase(Locale.ROOT));
				if (!methodValid) {
					reject(field + ".method", "must be an HTTP method (GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS or "
							+ "TRACE), such as POST");
				}
				boolean pathValid = path(field + ".path", route.getPath());
				if (route.getTtl() != null) {
					positive(field + ".ttl", route.getTtl(), "24h, or unset for modelgate.idempotency.ttl");
				}
				if (route.getLeaseTtl() != null) {
					positive(field + ".leaseTtl", route.getLeaseTtl(),
							"30s, or unset for modelgate.idempotency.lease-ttl");
				}
				List<String> ignoreFields = (route.getIgnoreFields() != null) ? route.getIgnoreFields() : List.of();
				for (int j = 0; j < ignoreFields.size(); j++) {
					try {
						CanonicalBody.pointers(ignoreFields.get(j));
					}
					catch (IllegalArgumentException ex) {
						reject(field + ".ignoreFields[" + j + "]", "must be a JSON Pointer (RFC 6901), such as "
								+ "/metadata/request_id");
					}
				}
				if (methodValid && pathValid) {
					String key = method.trim().toUpperCase(Locale.ROOT) + " " + route.getPath();
					Integer earlier = declared.putIfAbsent(key, i);
					if (earlier != null) {
						reject(field + ".path", "repeats the method and path of routes[" + earlier + "] (" + key
								+ "): declare each route once");
					}
				}
			}
		}

		private boolean path(String field, @Nullable String path) {
			String example = "such as /v1/chat/completions or /orders/{id}";
			if (path == null || !path.startsWith("/")) {
				reject(field, "must be a path pattern starting with /, " + example);
				return false;
			}
			try {
				PathPatternParser.defaultInstance.parse(path);
				return true;
			}
			catch (PatternParseException ex) {
				reject(field, "must be a path pattern, " + example + ": " + ex.getMessage());
				return false;
			}
		}

	}

	/**
	 * The message starts with the property's full name, so that it reads on its own wherever it is
	 * shown: in the failure analysis, in a test's assertion, or in the exception's own text.
	 */
	/**
	 * Keys are reported as global errors, so that the failure analysis, which prints the given value of
	 * a rejected field, never prints a key.
	 */
	private void encryption(ModelgateIdempotencyProperties.Encryption encryption) {
		String active = encryption.getActiveKeyId();
		Map<String, String> keys = encryption.getKeys();
		if (active == null && keys.isEmpty()) {
			return;
		}
		if (active == null || active.isBlank()) {
			reject("encryption.activeKeyId", "must name the key that encrypts new records, one of "
					+ "modelgate.idempotency.encryption.keys (given: " + String.join(", ", keys.keySet()) + ")");
		}
		else if (keys.isEmpty()) {
			reject("encryption.activeKeyId", "names a key, but modelgate.idempotency.encryption.keys gives none: "
					+ "add modelgate.idempotency.encryption.keys." + active.strip()
					+ "=<32 random bytes in base64, such as the output of 'openssl rand -base64 32'>");
		}
		else if (!keys.containsKey(active.strip())) {
			reject("encryption.activeKeyId", "must be one of the ids of modelgate.idempotency.encryption.keys ("
					+ String.join(", ", keys.keySet()) + ")");
		}
		keys.forEach((id, value) -> {
			String problem = RecordEncryptionSettings.problem(id, value);
			if (problem != null) {
				this.errors.reject("modelgate.idempotency.invalid", problem);
			}
		});
	}

	private void statusPath(@Nullable String path) {
		if (path != null && !STATUS_PATH.matcher(path).matches()) {
			reject("statusPath", "must be a path that starts with / and does not end with one (letters, digits, "
					+ "'-', '_', '.' and '/'), such as /idempotency-status; leave it unset to turn the status "
					+ "resource off");
		}
	}

	private void reject(String field, String reason) {
		this.errors.rejectValue(field, "modelgate.idempotency.invalid",
				ModelgateIdempotencyProperties.PREFIX + "." + DataObjectPropertyName.toDashedForm(field) + " " + reason);
	}

}
