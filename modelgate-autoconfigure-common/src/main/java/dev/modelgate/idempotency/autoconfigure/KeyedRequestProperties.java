package dev.modelgate.idempotency.autoconfigure;

import java.util.HashSet;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.util.StringUtils;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.web.EndpointDefaults;
import dev.modelgate.idempotency.web.KeyedRequestSettings;
import dev.modelgate.idempotency.web.ResponsePolicy;
import dev.modelgate.idempotency.web.StatusResponsePolicy;
import dev.modelgate.idempotency.web.StreamSettings;
import dev.modelgate.idempotency.web.UnidentifiedClients;

/**
 * The {@code modelgate.idempotency.*} properties as the settings of the HTTP decision, the same for
 * every web stack (the servlet filter, the WebFlux filter, the gateway route filter), with the same
 * start-up warnings.
 */
final class KeyedRequestProperties {

	private static final Log logger = LogFactory.getLog(ModelgateIdempotencyAutoConfiguration.class);

	private KeyedRequestProperties() {
	}

	/**
	 * The global settings of keyed requests.
	 * @param properties the properties
	 * @param defaultIdentityResolver whether clients are identified by the default resolver, which puts
	 * requests into the anonymous key space itself when no identity header is set
	 * @return the settings
	 */
	static KeyedRequestSettings settings(ModelgateIdempotencyProperties properties, boolean defaultIdentityResolver) {
		return new KeyedRequestSettings(properties.getHeaderName(), properties.getKeyMaxLength(),
				properties.getMaxRequestSize().toBytes(), properties.getMaxResponseSize().toBytes(),
				properties.getRetryAfter(), properties.getMismatchStatus(), properties.getReplayedHeaderName(),
				StringUtils.hasText(properties.getClientIdentityHeader()) ? properties.getClientIdentityHeader()
						: "identity",
				unidentifiedClients(properties, defaultIdentityResolver));
	}

	/** {@return the values an endpoint's settings fall back to} */
	static EndpointDefaults endpointDefaults(ModelgateIdempotencyProperties properties) {
		return new EndpointDefaults(properties.getTtl(), properties.getLeaseTtl(), properties.getWaitTimeout(),
				(properties.getInProgress() == ModelgateIdempotencyProperties.InProgress.WAIT)
						? Idempotent.InProgress.WAIT : Idempotent.InProgress.REJECT,
				properties.getSpentKeyRetention());
	}

	/** {@return the limits of recorded streams} */
	static StreamSettings streamSettings(ModelgateIdempotencyProperties properties) {
		ModelgateIdempotencyProperties.Stream stream = properties.getStream();
		return new StreamSettings(stream.getMaxEvents(), stream.getMaxBytes().toBytes(), stream.getMaxDuration(),
				stream.getPollInterval(), stream.getHeadWait(), stream.getMaxFollowers());
	}

	/** {@return which responses are recorded and which release the key} */
	static ResponsePolicy responsePolicy(ModelgateIdempotencyProperties properties) {
		return new StatusResponsePolicy(new HashSet<>(properties.getReleaseStatuses()), properties.isRecordServerErrors());
	}

	/**
	 * Warns, once, when no identity header is set: unauthenticated clients then share one key space.
	 * @param properties the properties
	 * @param resolverType the resolver bean a user can declare instead
	 */
	static void warnWithoutIdentityHeader(ModelgateIdempotencyProperties properties, String resolverType) {
		if (!StringUtils.hasText(properties.getClientIdentityHeader())) {
			logger.warn("modelgate.idempotency.client-identity-header is not set: requests without an "
					+ "authenticated principal share one anonymous idempotency key space. Set it (for example "
					+ "to Authorization) or declare a " + resolverType + " bean.");
		}
	}

	/**
	 * The policy for keyed requests without a client identity, with a WARN when it lets them run
	 * where another client's answer or no protection at all awaits them. It applies only where the
	 * resolver can find no identity: with no identity header, the default resolver puts every such
	 * request into the anonymous key space, and says so at start-up itself.
	 */
	private static UnidentifiedClients unidentifiedClients(ModelgateIdempotencyProperties properties,
			boolean defaultIdentityResolver) {
		UnidentifiedClients policy = UnidentifiedClients.valueOf(properties.getUnidentifiedClients().name());
		boolean applies = StringUtils.hasText(properties.getClientIdentityHeader()) || !defaultIdentityResolver;
		if (applies && policy == UnidentifiedClients.SHARE) {
			logger.warn("modelgate.idempotency.unidentified-clients=share: keyed requests without a client identity "
					+ "share one anonymous idempotency key space, so one such client can be answered with "
					+ "another's result.");
		}
		if (applies && policy == UnidentifiedClients.SKIP) {
			logger.warn("modelgate.idempotency.unidentified-clients=skip: keyed requests without a client identity "
					+ "run without idempotency protection, so their retries run again.");
		}
		return policy;
	}

}
