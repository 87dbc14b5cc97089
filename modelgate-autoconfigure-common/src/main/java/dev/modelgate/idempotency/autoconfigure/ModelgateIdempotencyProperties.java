package dev.modelgate.idempotency.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

import dev.modelgate.idempotency.Idempotent;

/**
 * Configuration of Idempotency-Key handling for {@code @Idempotent} endpoints.
 *
 * <p>Checked when bound: a setting that cannot work fails start-up with a message naming the property
 * and the values it takes. The checks are a Spring {@link Validator} implemented by this class, which
 * Spring Boot applies to every {@code @ConfigurationProperties} object that is one, with or without a
 * Bean Validation provider. The class is deliberately not {@code @Validated}: that would also make Spring
 * Boot build a Bean Validation validator whenever the jakarta.validation API is on the class path, and
 * many applications have the API without a provider (springdoc brings it), where building one fails
 * start-up.
 */
@ConfigurationProperties(ModelgateIdempotencyProperties.PREFIX)
public class ModelgateIdempotencyProperties implements Validator {

	static final String PREFIX = "modelgate.idempotency";

	/**
	 * Whether Idempotency-Key handling is enabled.
	 */
	private boolean enabled = true;

	/**
	 * Which store keeps the idempotency records.
	 */
	private StoreType store = StoreType.AUTO;

	/**
	 * Name of the request header that carries the idempotency key.
	 */
	private String headerName = "Idempotency-Key";

	/**
	 * Longest key accepted, in characters after unquoting.
	 */
	private int keyMaxLength = 255;

	/**
	 * How long a completed response is kept for replay.
	 */
	private Duration ttl = Duration.ofHours(24);

	/**
	 * How long a key stays spent once its recorded answer has expired after ttl: a retry of the same
	 * request is then answered 410 idempotency_key_spent (a listener's redelivery is acknowledged, an
	 * operation throws IdempotencyKeySpentException) instead of running again, while the store keeps
	 * only a small marker. Zero (the default) frees the key when the answer expires.
	 */
	private Duration spentKeyRetention = Duration.ZERO;

	/**
	 * Path of the status resource, such as /idempotency-status: a duplicate answered 409 then carries a
	 * Location below it, where a GET with the same client identity and Idempotency-Key answers 202
	 * while the request runs, its recorded response once it completed, 410 once the key is spent, and
	 * 404 for a key the client never used. Unset (the default) turns the resource off.
	 */
	private @Nullable String statusPath;

	/**
	 * How long an in-progress record holds without a heartbeat. The heartbeat renews it every third
	 * of this while the handler runs; after a crash, retries are refused for at most this long.
	 */
	private Duration leaseTtl = Duration.ofSeconds(30);

	/**
	 * Value of the Retry-After header on 409 in-progress and 503 store-unavailable answers: a hint of
	 * when to look again, not the lease.
	 */
	private Duration retryAfter = Duration.ofSeconds(1);

	/**
	 * What a duplicate gets while the first request with its key still runs, on endpoints whose
	 * annotation does not say (inProgress = DEFAULT): reject with 409 at once, or wait up to
	 * wait-timeout for the first response and replay it.
	 */
	private InProgress inProgress = InProgress.REJECT;

	/**
	 * How long a duplicate waits for the first request to finish when in-progress is WAIT (globally or
	 * on its endpoint); zero answers the 409 at once.
	 */
	private Duration waitTimeout = Duration.ofSeconds(10);

	/**
	 * Largest request body buffered for fingerprinting; a keyed request with a larger body is answered
	 * 413 before anything runs.
	 */
	private DataSize maxRequestSize = DataSize.ofMegabytes(1);

	/**
	 * Largest response body stored for replay; a larger one is delivered but not stored, and retries
	 * get 410.
	 */
	private DataSize maxResponseSize = DataSize.ofMegabytes(1);

	/**
	 * Upper bound of each store call (begin, renew, complete, release).
	 */
	private Duration operationTimeout = Duration.ofSeconds(2);

	/**
	 * Request header whose value (hashed) identifies the client when there is no authenticated
	 * principal, for example Authorization. Without it, unauthenticated requests share one key space.
	 */
	private String clientIdentityHeader;

	/**
	 * What a keyed request gets when client-identity-header is set but the request has neither an
	 * authenticated principal nor a non-blank value of that header: reject (400
	 * idempotency_client_unidentified, so that no client is ever answered with another's result), share
	 * (one key space for all such requests) or skip (it runs without idempotency, as if it had no key).
	 */
	private UnidentifiedClients unidentifiedClients = UnidentifiedClients.REJECT;

	/**
	 * Status answered when a key is reused with a different request: a 4xx other than 408, 409, 425
	 * and 429, which tell a client to retry.
	 */
	private int mismatchStatus = 422;

	/**
	 * Name of the response header, valued true, that marks a replayed response.
	 */
	private String replayedHeaderName = "Idempotent-Replayed";

	/**
	 * Response headers replayed in addition to the built-in allowlist. Set-Cookie, Authorization,
	 * WWW-Authenticate and hop-by-hop headers are never replayed, whatever is listed.
	 */
	private List<String> replayHeaders = new ArrayList<>();

	/**
	 * Statuses (4xx or 5xx) whose responses are not recorded: the key is released so that a retry runs
	 * again. A 5xx listed here is released even when record-server-errors is true.
	 */
	private List<Integer> releaseStatuses = new ArrayList<>(List.of(408, 409, 425, 429));

	/**
	 * Whether 5xx responses are recorded and replayed instead of released.
	 */
	private boolean recordServerErrors = false;

	/**
	 * Routes covered without an annotation, each an HTTP method and a path pattern with the
	 * annotation's settings: whatever serves a matching request (an unannotated controller, a
	 * functional endpoint, a Spring Cloud Gateway route) runs under the idempotency key. An
	 * @Idempotent handler or an idempotent functional route that matches the same request wins.
	 */
	private List<Route> routes = new ArrayList<>();

	private final Redis redis = new Redis();

	private final Jdbc jdbc = new Jdbc();

	private final Memory memory = new Memory();

	private final Stream stream = new Stream();

	private final Reactive reactive = new Reactive();

	private final Encryption encryption = new Encryption();

	private final SpringAi springAi = new SpringAi();

	/**
	 * How long a RabbitMQ consumer waits before it requeues a message whose key another consumer is
	 * still handling (Kafka's error handler back-off decides this there).
	 */
	private Duration listenerRequeueDelay = Duration.ofSeconds(1);

	/**
	 * Message listeners that cannot carry @IdempotentListener, by the id of their Kafka or RabbitMQ
	 * listener annotation (as written there): each runs as if it had @IdempotentListener with these
	 * settings.
	 */
	private Map<String, Listener> listeners = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public StoreType getStore() {
		return this.store;
	}

	public void setStore(StoreType store) {
		this.store = store;
	}

	public String getHeaderName() {
		return this.headerName;
	}

	public void setHeaderName(String headerName) {
		this.headerName = headerName;
	}

	public int getKeyMaxLength() {
		return this.keyMaxLength;
	}

	public void setKeyMaxLength(int keyMaxLength) {
		this.keyMaxLength = keyMaxLength;
	}

	public Duration getTtl() {
		return this.ttl;
	}

	public void setTtl(Duration ttl) {
		this.ttl = ttl;
	}

	public Duration getSpentKeyRetention() {
		return this.spentKeyRetention;
	}

	public void setSpentKeyRetention(Duration spentKeyRetention) {
		this.spentKeyRetention = spentKeyRetention;
	}

	public @Nullable String getStatusPath() {
		return this.statusPath;
	}

	public void setStatusPath(@Nullable String statusPath) {
		this.statusPath = statusPath;
	}

	public Duration getLeaseTtl() {
		return this.leaseTtl;
	}

	public void setLeaseTtl(Duration leaseTtl) {
		this.leaseTtl = leaseTtl;
	}

	public Duration getRetryAfter() {
		return this.retryAfter;
	}

	public void setRetryAfter(Duration retryAfter) {
		this.retryAfter = retryAfter;
	}

	public InProgress getInProgress() {
		return this.inProgress;
	}

	public void setInProgress(InProgress inProgress) {
		this.inProgress = inProgress;
	}

	public Duration getWaitTimeout() {
		return this.waitTimeout;
	}

	public void setWaitTimeout(Duration waitTimeout) {
		this.waitTimeout = waitTimeout;
	}

	public DataSize getMaxRequestSize() {
		return this.maxRequestSize;
	}

	public void setMaxRequestSize(DataSize maxRequestSize) {
		this.maxRequestSize = maxRequestSize;
	}

	public DataSize getMaxResponseSize() {
		return this.maxResponseSize;
	}

	public void setMaxResponseSize(DataSize maxResponseSize) {
		this.maxResponseSize = maxResponseSize;
	}

	public Duration getOperationTimeout() {
		return this.operationTimeout;
	}

	public void setOperationTimeout(Duration operationTimeout) {
		this.operationTimeout = operationTimeout;
	}

	public UnidentifiedClients getUnidentifiedClients() {
		return this.unidentifiedClients;
	}

	public void setUnidentifiedClients(UnidentifiedClients unidentifiedClients) {
		this.unidentifiedClients = unidentifiedClients;
	}

	public String getClientIdentityHeader() {
		return this.clientIdentityHeader;
	}

	public void setClientIdentityHeader(String clientIdentityHeader) {
		this.clientIdentityHeader = clientIdentityHeader;
	}

	public int getMismatchStatus() {
		return this.mismatchStatus;
	}

	public void setMismatchStatus(int mismatchStatus) {
		this.mismatchStatus = mismatchStatus;
	}

	public String getReplayedHeaderName() {
		return this.replayedHeaderName;
	}

	public void setReplayedHeaderName(String replayedHeaderName) {
		this.replayedHeaderName = replayedHeaderName;
	}

	public List<String> getReplayHeaders() {
		return this.replayHeaders;
	}

	public void setReplayHeaders(List<String> replayHeaders) {
		this.replayHeaders = replayHeaders;
	}

	public List<Integer> getReleaseStatuses() {
		return this.releaseStatuses;
	}

	public void setReleaseStatuses(List<Integer> releaseStatuses) {
		this.releaseStatuses = releaseStatuses;
	}

	public boolean isRecordServerErrors() {
		return this.recordServerErrors;
	}

	public void setRecordServerErrors(boolean recordServerErrors) {
		this.recordServerErrors = recordServerErrors;
	}

	public List<Route> getRoutes() {
		return this.routes;
	}

	public void setRoutes(List<Route> routes) {
		this.routes = routes;
	}

	public Redis getRedis() {
		return this.redis;
	}

	public Memory getMemory() {
		return this.memory;
	}

	public Jdbc getJdbc() {
		return this.jdbc;
	}

	public Stream getStream() {
		return this.stream;
	}

	public Duration getListenerRequeueDelay() {
		return this.listenerRequeueDelay;
	}

	public void setListenerRequeueDelay(Duration listenerRequeueDelay) {
		this.listenerRequeueDelay = listenerRequeueDelay;
	}

	public Map<String, Listener> getListeners() {
		return this.listeners;
	}

	public void setListeners(Map<String, Listener> listeners) {
		this.listeners = listeners;
	}

	public Reactive getReactive() {
		return this.reactive;
	}

	public Encryption getEncryption() {
		return this.encryption;
	}

	public SpringAi getSpringAi() {
		return this.springAi;
	}

	@Override
	public boolean supports(Class<?> type) {
		return ModelgateIdempotencyProperties.class.isAssignableFrom(type);
	}

	@Override
	public void validate(Object target, Errors errors) {
		new SettingsCheck((ModelgateIdempotencyProperties) target, errors).run();
	}

	/** What a keyed request without a client identity gets when an identity header is configured. */
	public enum UnidentifiedClients {

		/** Answered 400 idempotency_client_unidentified. */
		REJECT,

		/** Put into one key space shared by every unidentified request. */
		SHARE,

		/** Run without idempotency protection, as if the request had no key. */
		SKIP

	}

	/** What a duplicate gets while the first request with its key still runs. */
	public enum InProgress {

		/** Answer 409 idempotency_request_in_progress with a Retry-After hint at once. */
		REJECT,

		/** Wait up to wait-timeout for the first request to finish and replay its response, else 409. */
		WAIT

	}

	/** What happens when the store fails before the handler runs. */
	public enum StoreFailure {

		/** Answer 503 idempotency_store_unavailable; the handler does not run. */
		REJECT,

		/** Run the handler without protection and log a WARN. */
		PROCEED

	}

	/**
	 * A route covered by configuration: the settings of {@code @Idempotent}, for a method and path
	 * pattern instead of a handler method.
	 */
	public static class Route {

		/**
		 * HTTP method of the route, such as POST.
		 */
		private String method;

		/**
		 * Path pattern of the route, as Spring MVC's PathPattern reads it (such as /v1/chat/completions or
		 * /orders/{id}), relative to the DispatcherServlet like a @RequestMapping path.
		 */
		private String path;

		/**
		 * Name of the key space; unset means the path pattern. Routes that share a scope name share
		 * their keys.
		 */
		private String scope;

		/**
		 * Whether a request without a key is refused with 400 idempotency_key_missing.
		 */
		private boolean required = false;

		/**
		 * How long a completed response is kept; unset means modelgate.idempotency.ttl.
		 */
		private Duration ttl;

		/**
		 * How long a lease lasts without a heartbeat; unset means modelgate.idempotency.lease-ttl.
		 */
		private Duration leaseTtl;

		/**
		 * What a duplicate gets while the first request still runs; unset means
		 * modelgate.idempotency.in-progress.
		 */
		private InProgress inProgress;

		/**
		 * JSON Pointers (RFC 6901) of request body members left out of the fingerprint.
		 */
		private List<String> ignoreFields = new ArrayList<>();

		/**
		 * What happens when the store cannot be reached before the handler runs.
		 */
		private StoreFailure onStoreFailure = StoreFailure.REJECT;

		/**
		 * Whether a duplicate that arrives while the first request's Server-Sent Events still stream
		 * attaches to the stream rather than getting what in-progress says.
		 */
		private boolean attachToStream = true;

		public String getMethod() {
			return this.method;
		}

		public void setMethod(String method) {
			this.method = method;
		}

		public String getPath() {
			return this.path;
		}

		public void setPath(String path) {
			this.path = path;
		}

		public String getScope() {
			return this.scope;
		}

		public void setScope(String scope) {
			this.scope = scope;
		}

		public boolean isRequired() {
			return this.required;
		}

		public void setRequired(boolean required) {
			this.required = required;
		}

		public Duration getTtl() {
			return this.ttl;
		}

		public void setTtl(Duration ttl) {
			this.ttl = ttl;
		}

		public Duration getLeaseTtl() {
			return this.leaseTtl;
		}

		public void setLeaseTtl(Duration leaseTtl) {
			this.leaseTtl = leaseTtl;
		}

		public InProgress getInProgress() {
			return this.inProgress;
		}

		public void setInProgress(InProgress inProgress) {
			this.inProgress = inProgress;
		}

		public List<String> getIgnoreFields() {
			return this.ignoreFields;
		}

		public void setIgnoreFields(List<String> ignoreFields) {
			this.ignoreFields = ignoreFields;
		}

		public StoreFailure getOnStoreFailure() {
			return this.onStoreFailure;
		}

		public void setOnStoreFailure(StoreFailure onStoreFailure) {
			this.onStoreFailure = onStoreFailure;
		}

		public boolean isAttachToStream() {
			return this.attachToStream;
		}

		public void setAttachToStream(boolean attachToStream) {
			this.attachToStream = attachToStream;
		}

	}

	/** Where the records are kept. */
	public enum StoreType {

		/** Redis when Spring Data Redis is configured, else JDBC when there is a DataSource. */
		AUTO,

		/** Redis, through the application's RedisConnectionFactory. */
		REDIS,

		/** A relational database (PostgreSQL, MariaDB or MySQL), through the application's DataSource. */
		JDBC,

		/** The JVM's memory: a single process only, records lost on restart. */
		MEMORY

	}

	/** Redis store settings. */
	public static class Redis {

		/**
		 * Prefix of every record key; the rest is the hex SHA-256 of the scope.
		 */
		private String keyPrefix = "modelgate:idempotency:";

		/**
		 * How many replicas must have a begin or complete before it counts (Redis WAIT after each
		 * script), so that a failover to a replica does not lose it. A begin fewer replicas
		 * acknowledged within replica-acknowledgement-timeout is released and answered as a store
		 * failure; a complete is still answered to its client. 0 (the default) waits for none.
		 */
		private int replicaAcknowledgements;

		/**
		 * How long the primary waits for replica-acknowledgements replicas. Must be shorter than
		 * operation-timeout, which bounds the whole call.
		 */
		private Duration replicaAcknowledgementTimeout = Duration.ofMillis(500);

		public int getReplicaAcknowledgements() {
			return this.replicaAcknowledgements;
		}

		public void setReplicaAcknowledgements(int replicaAcknowledgements) {
			this.replicaAcknowledgements = replicaAcknowledgements;
		}

		public Duration getReplicaAcknowledgementTimeout() {
			return this.replicaAcknowledgementTimeout;
		}

		public void setReplicaAcknowledgementTimeout(Duration replicaAcknowledgementTimeout) {
			this.replicaAcknowledgementTimeout = replicaAcknowledgementTimeout;
		}

		public String getKeyPrefix() {
			return this.keyPrefix;
		}

		public void setKeyPrefix(String keyPrefix) {
			this.keyPrefix = keyPrefix;
		}

		/**
		 * Whether start-up fails when the auto-configured Redis store's server may evict idempotency
		 * records (its maxmemory-policy is not noeviction, or cannot be read), instead of logging a
		 * warning. A Redis that does not answer at start-up cannot be checked and does not stop the
		 * application, whatever this says.
		 */
		private boolean requireNoeviction = false;

		public boolean isRequireNoeviction() {
			return this.requireNoeviction;
		}

		public void setRequireNoeviction(boolean requireNoeviction) {
			this.requireNoeviction = requireNoeviction;
		}

		/**
		 * Whether the Lettuce client that Spring Boot builds for the Redis store refuses commands at
		 * once while its connection is down (a keyed request gets its 503 without waiting for
		 * operation-timeout) and reconnects with a delay of at most max-reconnect-delay (Lettuce's
		 * own default backs off up to 30 s, so service could return that long after Redis does).
		 * Applies to the application's whole auto-configured Lettuce client; false leaves the
		 * client as Spring Boot configures it.
		 */
		private boolean failFast = true;

		/**
		 * The longest delay between two reconnection attempts of the auto-configured Lettuce client,
		 * when fail-fast is on: about how long after Redis returns the store serves again.
		 */
		private Duration maxReconnectDelay = Duration.ofSeconds(1);

		public boolean isFailFast() {
			return this.failFast;
		}

		public void setFailFast(boolean failFast) {
			this.failFast = failFast;
		}

		public Duration getMaxReconnectDelay() {
			return this.maxReconnectDelay;
		}

		public void setMaxReconnectDelay(Duration maxReconnectDelay) {
			this.maxReconnectDelay = maxReconnectDelay;
		}

	}

	/** JDBC store settings. */
	public static class Jdbc {

		/**
		 * Name of the table that holds the records.
		 */
		private String tableName = "modelgate_idempotency";

		/**
		 * When to create the table at start-up: always, only for embedded databases, or never (nothing
		 * touches the database at start-up).
		 */
		private SchemaInitialization initializeSchema = SchemaInitialization.EMBEDDED;

		/**
		 * How often expired records are deleted.
		 */
		private Duration purgeInterval = Duration.ofMinutes(5);

		/**
		 * Whether every write of the JDBC store waits for PostgreSQL to flush it to disk. Off: begin,
		 * stream appends and the purge commit with synchronous_commit=off for themselves alone
		 * (visible to all at once); complete, release, renew and the applied mark always wait, and
		 * their flush makes the earlier writes durable too. PostgreSQL only: on MariaDB and MySQL every
		 * write commits as the server is configured (innodb_flush_log_at_trx_commit).
		 */
		private boolean synchronousCommit;

		public String getTableName() {
			return this.tableName;
		}

		public void setTableName(String tableName) {
			this.tableName = tableName;
		}

		public SchemaInitialization getInitializeSchema() {
			return this.initializeSchema;
		}

		public void setInitializeSchema(SchemaInitialization initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

		public Duration getPurgeInterval() {
			return this.purgeInterval;
		}

		public void setPurgeInterval(Duration purgeInterval) {
			this.purgeInterval = purgeInterval;
		}

		public boolean isSynchronousCommit() {
			return this.synchronousCommit;
		}

		public void setSynchronousCommit(boolean synchronousCommit) {
			this.synchronousCommit = synchronousCommit;
		}

	}

	/**
	 * When the JDBC store creates its table at start-up. The same values as Spring Boot's own
	 * {@code initialize-schema} settings; declared here so that the properties load in an application
	 * without JDBC on its class path.
	 */
	public enum SchemaInitialization {

		/** Create what is missing on every start. */
		ALWAYS,

		/** Only for an embedded database. */
		EMBEDDED,

		/** Never: nothing touches the database at start-up. */
		NEVER

	}

	/** In-memory store settings. */
	/** The @IdempotentListener settings of one listener that cannot be annotated. */
	public static class Listener {

		/** The header whose value is the key; ignored when key or message-id is set. */
		private String keyHeader = "Idempotency-Key";

		/** SpEL for the key, on the listener's arguments and #message (the message as received). */
		private String key = "";

		/** Whether the key is the broker's message id (the AMQP message_id property). */
		private boolean messageId = false;

		/** Name of the key space; empty means the listener method and its consumer group or queue. */
		private String scope = "";

		/** How long the outcome is kept; unset means the global ttl. */
		private @Nullable Duration ttl;

		/** How long a run holds its key without a heartbeat; unset means the global lease-ttl. */
		private @Nullable Duration leaseTtl;

		public String getKeyHeader() {
			return this.keyHeader;
		}

		public void setKeyHeader(String keyHeader) {
			this.keyHeader = keyHeader;
		}

		public String getKey() {
			return this.key;
		}

		public void setKey(String key) {
			this.key = key;
		}

		public boolean isMessageId() {
			return this.messageId;
		}

		public void setMessageId(boolean messageId) {
			this.messageId = messageId;
		}

		public String getScope() {
			return this.scope;
		}

		public void setScope(String scope) {
			this.scope = scope;
		}

		public @Nullable Duration getTtl() {
			return this.ttl;
		}

		public void setTtl(@Nullable Duration ttl) {
			this.ttl = ttl;
		}

		public @Nullable Duration getLeaseTtl() {
			return this.leaseTtl;
		}

		public void setLeaseTtl(@Nullable Duration leaseTtl) {
			this.leaseTtl = leaseTtl;
		}

	}

	public static class Memory {

		/**
		 * Most records kept at once. When full, the completed records that completed longest ago are
		 * evicted (a retry of such a key runs again); records in progress never are, and when they
		 * alone fill the store a new key is answered 503.
		 */
		private int maxEntries = 10_000;

		/**
		 * Most bytes of stored outcomes kept at once, evicted like max-entries. An outcome that does not
		 * fit even then is recorded as completed without its result (a retry gets 410).
		 */
		private DataSize maxBytes = DataSize.ofMegabytes(64);

		public int getMaxEntries() {
			return this.maxEntries;
		}

		public void setMaxEntries(int maxEntries) {
			this.maxEntries = maxEntries;
		}

		public DataSize getMaxBytes() {
			return this.maxBytes;
		}

		public void setMaxBytes(DataSize maxBytes) {
			this.maxBytes = maxBytes;
		}

	}

	/** Recorded Server-Sent Events streams. */
	public static class Stream {

		/**
		 * Most events recorded per stream. Past it the stream is still delivered to its client but no
		 * longer recorded: the key stays spent and retries get 410.
		 */
		private int maxEvents = 10_000;

		/** Most bytes of events recorded per stream, with the same consequence as max-events. */
		private DataSize maxBytes = DataSize.ofMegabytes(8);

		/**
		 * How long a stream is recorded, and kept running after its client went away. Past it
		 * recording stops as past max-events, and a generation without a client is ended.
		 */
		private Duration maxDuration = Duration.ofMinutes(10);

		/** How often a duplicate attached to a live stream asks the store for new events. */
		private Duration pollInterval = Duration.ofMillis(100);

		/**
		 * How long a duplicate that asks for text/event-stream waits for the running request's stream
		 * to begin (a model that thinks before its first token), then attaches to it; past it, or when
		 * the duplicate does not ask for a stream, it is answered 409. Zero answers 409 at once.
		 */
		private Duration headWait = Duration.ofSeconds(30);

		/**
		 * How many duplicates one instance lets follow one live stream at once; the next gets 409 with
		 * Retry-After until one leaves.
		 */
		private int maxFollowers = 100;

		public int getMaxEvents() {
			return this.maxEvents;
		}

		public void setMaxEvents(int maxEvents) {
			this.maxEvents = maxEvents;
		}

		public DataSize getMaxBytes() {
			return this.maxBytes;
		}

		public void setMaxBytes(DataSize maxBytes) {
			this.maxBytes = maxBytes;
		}

		public Duration getMaxDuration() {
			return this.maxDuration;
		}

		public void setMaxDuration(Duration maxDuration) {
			this.maxDuration = maxDuration;
		}

		public Duration getPollInterval() {
			return this.pollInterval;
		}

		public void setPollInterval(Duration pollInterval) {
			this.pollInterval = pollInterval;
		}

		public Duration getHeadWait() {
			return this.headWait;
		}

		public void setHeadWait(Duration headWait) {
			this.headWait = headWait;
		}

		public int getMaxFollowers() {
			return this.maxFollowers;
		}

		public void setMaxFollowers(int maxFollowers) {
			this.maxFollowers = maxFollowers;
		}

	}

	/**
	 * WebFlux: how a blocking store (JDBC, the Redis template) is called without blocking an event-loop
	 * thread. Its calls run on a pool of their own; a store that never waits (memory) and a reactive
	 * store are called directly.
	 */
	public static class Reactive {

		/** Most calls of a blocking store that run at once, each on a thread of the pool. */
		private int storeThreads = 16;

		/**
		 * Most calls of a blocking store that wait for a thread. Past it a call fails at once and its
		 * request is answered 503, instead of waiting without end.
		 */
		private int storeQueueCapacity = 256;

		public int getStoreThreads() {
			return this.storeThreads;
		}

		public void setStoreThreads(int storeThreads) {
			this.storeThreads = storeThreads;
		}

		public int getStoreQueueCapacity() {
			return this.storeQueueCapacity;
		}

		public void setStoreQueueCapacity(int storeQueueCapacity) {
			this.storeQueueCapacity = storeQueueCapacity;
		}

	}

	/**
	 * Encryption at rest of what the store keeps of an answer (bodies, headers, stream events), with
	 * AES-256-GCM. Off unless an active key id is set (or a RecordEncryptionKeys bean is declared).
	 */
	public static class Encryption {

		/**
		 * The id of the key that encrypts new records; one of the keys. Setting it turns encryption on.
		 */
		private @Nullable String activeKeyId;

		/**
		 * Keys by id (1 to 32 letters, digits, '_' or '-'), each 32 random bytes in base64 (for example
		 * from "openssl rand -base64 32"). Keep a retired key here until the records it encrypted have
		 * expired (ttl): a record whose key is gone is answered as a result that was not kept.
		 */
		private Map<String, String> keys = new LinkedHashMap<>();

		public @Nullable String getActiveKeyId() {
			return this.activeKeyId;
		}

		public void setActiveKeyId(@Nullable String activeKeyId) {
			this.activeKeyId = activeKeyId;
		}

		public Map<String, String> getKeys() {
			return this.keys;
		}

		public void setKeys(Map<String, String> keys) {
			this.keys = keys;
		}

	}

	/**
	 * Agents on Spring AI 2: the tool calls a ChatClient makes during a keyed run (a keyed request,
	 * an @IdempotentOperation or @IdempotentListener, or a run key in the tool context) run at most once
	 * per call, through the application's ToolCallingManager bean.
	 */
	public static class SpringAi {

		/**
		 * Whether the application's ToolCallingManager bean is wrapped so that the tool calls of a keyed
		 * run run at most once.
		 */
		private boolean enabled = true;

		/**
		 * Whether every tool's calls are protected, not only those of @Tool methods that carry
		 * @IdempotentTool.
		 */
		private boolean allTools = false;

		/**
		 * Whether the model rounds of a keyed run are recorded too, so that a re-run replays the rounds
		 * already paid for and asks the model again only from the first one not recorded (an advisor of
		 * every ChatClient built from the auto-configured ChatClient.Builder).
		 */
		private boolean recordModelRounds = false;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public boolean isAllTools() {
			return this.allTools;
		}

		public void setAllTools(boolean allTools) {
			this.allTools = allTools;
		}

		public boolean isRecordModelRounds() {
			return this.recordModelRounds;
		}

		public void setRecordModelRounds(boolean recordModelRounds) {
			this.recordModelRounds = recordModelRounds;
		}

	}

}
