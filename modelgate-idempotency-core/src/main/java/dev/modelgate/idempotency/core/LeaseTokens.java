package dev.modelgate.idempotency.core;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The one source of lease tokens, for the blocking and the asynchronous coordinator alike: a random
 * 128-bit value per acquisition.
 *
 * <p>Tokens come from a DRBG seeded once, here: the platform's default ({@code NativePRNG}) reads
 * {@code /dev/urandom} now and then while generating, which is file I/O on whatever thread asks (an
 * event loop, where BlockHound reports it); a DRBG generates from its state and reseeds only after
 * billions of requests.
 */
final class LeaseTokens {

	private static final SecureRandom RANDOM = seededRandom();

	private LeaseTokens() {
	}

	/**
	 * Seeds the generator now, if it is not yet: a coordinator calls this when it is made, so that the
	 * seed's file read happens where blocking is allowed, never on the first request's event loop.
	 */
	static void seed() {
		// Loading this class seeded RANDOM.
	}

	/** {@return a new token, 32 hexadecimal digits} */
	static String next() {
		byte[] bytes = new byte[16];
		RANDOM.nextBytes(bytes);
		return HexFormat.of().formatHex(bytes);
	}

	private static SecureRandom seededRandom() {
		SecureRandom random;
		try {
			random = SecureRandom.getInstance("DRBG");
		}
		catch (NoSuchAlgorithmException ex) {
			random = new SecureRandom();
		}
		// A DRBG takes its seed on first use: let that be now, not on a request's thread.
		random.nextBytes(new byte[16]);
		return random;
	}

}
