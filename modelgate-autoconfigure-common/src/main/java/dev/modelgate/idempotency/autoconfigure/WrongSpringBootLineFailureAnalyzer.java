package dev.modelgate.idempotency.autoconfigure;

import java.util.Arrays;
import java.util.stream.Collectors;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import dev.modelgate.idempotency.autoconfigure.SpringBootLineVerifier.Line;

/** Explains, at start-up, which starter fits the application's Spring Boot version. */
class WrongSpringBootLineFailureAnalyzer extends AbstractFailureAnalyzer<WrongSpringBootLineException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, WrongSpringBootLineException cause) {
		Line builtFor = cause.getBuiltFor();
		Line fitting = cause.getFitting();
		String description = "The application runs on Spring Boot " + cause.getVersion() + ", and dev.modelgate:"
				+ builtFor.starter() + " is built for Spring Boot " + builtFor.minimumVersion() + " and later "
				+ builtFor.major() + ".x.";
		String action;
		if (fitting != null) {
			action = "Depend on dev.modelgate:" + fitting.starter() + " instead of dev.modelgate:" + builtFor.starter()
					+ " (the line built for Spring Boot " + fitting.minimumVersion() + " and later " + fitting.major()
					+ ".x).";
		}
		else {
			action = "Run the application on one of the Spring Boot versions a starter is built for: "
					+ Arrays.stream(Line.values())
						.map((line) -> "Spring Boot " + line.minimumVersion() + " or later with dev.modelgate:"
								+ line.starter())
						.collect(Collectors.joining("; "))
					+ ".";
		}
		return new FailureAnalysis(description, action, cause);
	}

}
