package dev.modelgate.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.ClassUtils;

/**
 * Runs a script and then {@code WAIT} for replicas, pipelined on a dedicated connection: one round
 * trip, and the wait blocks only that connection (Redis does not allow {@code WAIT} inside a script,
 * and on the shared connection every other command would queue behind it).
 */
final class AcknowledgedScripts implements AutoCloseable {

	private static final String WAIT = "WAIT";

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			AcknowledgedScripts.class.getClassLoader());

	private final DedicatedConnections connections;

	private final ReplicaAcknowledgement acknowledgement;

	AcknowledgedScripts(DedicatedConnections connections, ReplicaAcknowledgement acknowledgement) {
		this.connections = connections;
		this.acknowledgement = acknowledgement;
	}

	ReplicaAcknowledgement acknowledgement() {
		return this.acknowledgement;
	}

	/**
	 * Runs the script and waits for the replicas.
	 * @throws org.springframework.dao.DataAccessException when Redis cannot be asked
	 */
	<T> Acknowledged<T> execute(RedisScript<T> script, byte[][] keys, byte[]... args) {
		byte[][] keysAndArgs = new byte[keys.length + args.length][];
		System.arraycopy(keys, 0, keysAndArgs, 0, keys.length);
		System.arraycopy(args, 0, keysAndArgs, keys.length, args.length);
		return this.connections.apply((connection) -> {
			try {
				return pipelined(connection, script, false, keys.length, keysAndArgs);
			}
			catch (RuntimeException ex) {
				if (!RedisRecords.isNoScript(ex)) {
					throw ex;
				}
				// A new or promoted primary has not seen the script yet: EVAL loads it for next time.
				return pipelined(connection, script, true, keys.length, keysAndArgs);
			}
		});
	}

	@SuppressWarnings("unchecked")
	private <T> Acknowledged<T> pipelined(RedisConnection connection, RedisScript<T> script, boolean withText,
			int keyCount, byte[][] keysAndArgs) {
		ReturnType returnType = ReturnType.fromJavaType(script.getResultType());
		connection.openPipeline();
		if (withText) {
			connection.scriptingCommands().eval(script.getScriptAsString().getBytes(StandardCharsets.UTF_8), returnType,
					keyCount, keysAndArgs);
		}
		else {
			connection.scriptingCommands().evalSha(script.getSha1(), returnType, keyCount, keysAndArgs);
		}
		byte[][] waitArgs = { bytes(this.acknowledgement.replicas()), bytes(this.acknowledgement.timeout().toMillis()) };
		if (LETTUCE_PRESENT && Lettuce.isLettuce(connection)) {
			Lettuce.waitForReplicas(connection, waitArgs);
		}
		else {
			connection.execute(WAIT, waitArgs);
		}
		List<Object> results = connection.closePipeline();
		return new Acknowledged<>((T) results.get(0), (Long) results.get(1));
	}

	private static byte[] bytes(long value) {
		return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
	}

	/** Kept apart so that nothing loads Lettuce when it is absent. */
	private static final class Lettuce {

		static boolean isLettuce(RedisConnection connection) {
			return connection instanceof LettuceConnection;
		}

		/** Lettuce reads a reply it has no output type for as bytes, and {@code WAIT} answers an integer. */
		static void waitForReplicas(RedisConnection connection, byte[][] args) {
			((LettuceConnection) connection).execute(WAIT, new IntegerOutput<>(ByteArrayCodec.INSTANCE), args);
		}

	}

	@Override
	public void close() {
		this.connections.close();
	}

	/**
	 * A script's answer and how many replicas acknowledged the writes made so far on its connection.
	 * @param answer the script's answer
	 * @param replicas the replicas that acknowledged within the timeout
	 */
	record Acknowledged<T>(T answer, long replicas) {
	}

}
