package dev.modelgate.idempotency.jdbc;

import java.util.regex.Pattern;

/**
 * A table name checked to be a plain SQL identifier, optionally qualified by a schema. It is written
 * into SQL text (a table name cannot be a bind parameter), so anything that could end an identifier
 * or start another clause is refused instead of being quoted.
 */
final class TableName {

	// PostgreSQL truncates identifiers beyond 63 bytes; refusing them avoids two names meaning one table.
	private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

	private final String qualified;

	private final String unqualified;

	private TableName(String qualified, String unqualified) {
		this.qualified = qualified;
		this.unqualified = unqualified;
	}

	/**
	 * Checks {@code name}.
	 * @param name {@code table} or {@code schema.table}, unquoted
	 * @throws IllegalArgumentException when it is anything else
	 */
	static TableName of(String name) {
		if (name == null) {
			throw new IllegalArgumentException("The idempotency table name must not be null");
		}
		String[] parts = name.split("\\.", -1);
		if (parts.length > 2 || !IDENTIFIER.matcher(parts[0]).matches()
				|| !IDENTIFIER.matcher(parts[parts.length - 1]).matches()) {
			throw new IllegalArgumentException("Invalid idempotency table name '" + name
					+ "': expected an unquoted SQL identifier (letters, digits and underscores, not starting with "
					+ "a digit, at most 63 characters), optionally qualified by a schema as schema.table");
		}
		return new TableName(name, parts[parts.length - 1]);
	}

	/** The name as given, for statements. */
	String qualified() {
		return this.qualified;
	}

	/** The table's own name without its schema, to derive the names of its index and constraints. */
	String unqualified() {
		return this.unqualified;
	}

	@Override
	public String toString() {
		return this.qualified;
	}

}
