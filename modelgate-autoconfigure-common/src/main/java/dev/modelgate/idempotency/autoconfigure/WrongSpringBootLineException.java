package dev.modelgate.idempotency.autoconfigure;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.autoconfigure.SpringBootLineVerifier.Line;

/** The application runs on a Spring Boot version that the auto-configuration on its class path was not built for. */
class WrongSpringBootLineException extends RuntimeException {

	private final String version;

	private final Line builtFor;

	private final @Nullable Line fitting;

	/**
	 * @param version the Spring Boot version the application runs on
	 * @param builtFor the line of the auto-configuration on the class path
	 * @param fitting the line built for that version, {@code null} when there is none (or it is
	 * {@code builtFor}, and the version is too old)
	 */
	WrongSpringBootLineException(String version, Line builtFor, @Nullable Line fitting) {
		super("dev.modelgate:" + builtFor.starter() + " needs Spring Boot " + builtFor.minimumVersion() + " or a later "
				+ builtFor.major() + ".x, and the application runs on Spring Boot " + version
				+ ((fitting != null) ? "; use dev.modelgate:" + fitting.starter() + " instead" : ""));
		this.version = version;
		this.builtFor = builtFor;
		this.fitting = fitting;
	}

	String getVersion() {
		return this.version;
	}

	Line getBuiltFor() {
		return this.builtFor;
	}

	@Nullable Line getFitting() {
		return this.fitting;
	}

}
