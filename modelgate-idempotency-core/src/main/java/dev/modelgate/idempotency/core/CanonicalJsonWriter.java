package dev.modelgate.idempotency.core;

import java.math.BigDecimal;

/**
 * Receives one JSON value for a fingerprint, written by an adapter that parsed it with its JSON library
 * (the core parses no JSON, so that one fingerprint serves Jackson 2 and Jackson 3 alike). The adapter
 * writes an object's members sorted by name ({@link String#compareTo}), after leaving out the ignored
 * fields; numbers are compared as decimals here, so {@code 1}, {@code 1.0} and {@code 1e0} are one.
 */
public interface CanonicalJsonWriter {

	/** Starts an object of {@code members} members; each is a {@link #name} followed by its value. */
	void startObject(int members);

	/** The name of the next member. */
	void name(String name);

	/** Starts an array of {@code elements} values. */
	void startArray(int elements);

	void string(String value);

	void number(BigDecimal value);

	void bool(boolean value);

	void nullValue();

}
