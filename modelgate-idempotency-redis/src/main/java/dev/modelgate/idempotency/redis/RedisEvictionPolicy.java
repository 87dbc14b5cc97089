package dev.modelgate.idempotency.redis;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What a Redis server does with keys when it reaches {@code maxmemory}: its {@code maxmemory-policy}, as
 * {@link RedisEvictionPolicyReader} read it, or unknown when the server would not say.
 *
 * <p>Only {@code noeviction} keeps idempotency records safe. Every other policy evicts them under memory
 * pressure, the {@code volatile-*} ones included (they evict keys that have an expiry, and every record has
 * one): a completed key then runs again, and a key in progress can run twice at the same time.
 */
public final class RedisEvictionPolicy {

	/** The policy under which Redis refuses writes instead of evicting keys. */
	public static final String NOEVICTION = "noeviction";

	/** What {@link #name()} answers when the policy could not be read. */
	public static final String UNKNOWN = "unknown";

	private final @Nullable String name;

	private final Source source;

	private final @Nullable String unknownReason;

	private RedisEvictionPolicy(@Nullable String name, Source source, @Nullable String unknownReason) {
		this.name = name;
		this.source = source;
		this.unknownReason = unknownReason;
	}

	/**
	 * {@return a policy the server named}
	 * @param name the policy, as Redis names it ({@code allkeys-lru})
	 * @param source the command that read it
	 */
	public static RedisEvictionPolicy of(String name, Source source) {
		return new RedisEvictionPolicy(Objects.requireNonNull(name, "name"), source, null);
	}

	/**
	 * {@return a policy the server would not tell}
	 * @param reason why it could not be read
	 */
	public static RedisEvictionPolicy unknown(String reason) {
		return new RedisEvictionPolicy(null, Source.NONE, reason);
	}

	/** {@return the policy as Redis names it ({@code allkeys-lru}), or {@code unknown}} */
	public String name() {
		return (this.name != null) ? this.name : UNKNOWN;
	}

	/** {@return whether the server named its policy} */
	public boolean isKnown() {
		return this.name != null;
	}

	/** {@return whether the server is known to keep every key ({@code noeviction})} */
	public boolean isNoEviction() {
		return NOEVICTION.equals(this.name);
	}

	/** {@return the command that read the policy, {@link Source#NONE} when it is unknown} */
	public Source source() {
		return this.source;
	}

	/** {@return why the policy could not be read, or {@code null} when it was} */
	public @Nullable String unknownReason() {
		return this.unknownReason;
	}

	@Override
	public String toString() {
		return isKnown() ? name() + " (from " + this.source + ")" : UNKNOWN + " (" + this.unknownReason + ")";
	}

	/** The command the policy was read with. */
	public enum Source {

		/** {@code CONFIG GET maxmemory-policy}. */
		CONFIG,

		/** {@code INFO memory}, field {@code maxmemory_policy}: for users or providers that do not allow CONFIG. */
		INFO,

		/** Not read: the server refused both commands. */
		NONE

	}

}
