package dev.modelgate.idempotency.autoconfigure;

import java.util.Comparator;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.context.properties.bind.validation.ValidationErrors;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.core.Ordered;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;

/**
 * Lists the {@code modelgate.idempotency} settings that failed their checks, each with the value given,
 * where it was given, and the values it takes. Ahead of Spring Boot's own analyzer of binding
 * failures, whose report names the properties in their Java form ({@code leaseTtl}) and the target as
 * a {@code Bindable}.
 */
class InvalidIdempotencySettingsFailureAnalyzer extends AbstractFailureAnalyzer<BindValidationException>
		implements Ordered {

	private static final ConfigurationPropertyName PREFIX = ConfigurationPropertyName
		.of(ModelgateIdempotencyProperties.PREFIX);

	@Override
	public int getOrder() {
		return 0;
	}

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, BindValidationException cause) {
		ValidationErrors errors = cause.getValidationErrors();
		if (!PREFIX.equals(errors.getName()) && !PREFIX.isAncestorOf(errors.getName())) {
			return null;
		}
		StringBuilder description = new StringBuilder("Invalid idempotency settings:%n".formatted());
		for (ObjectError error : errors.getAllErrors()) {
			description.append("%n    %s%n".formatted(error.getDefaultMessage()));
			if (error instanceof FieldError field) {
				ConfigurationPropertyName name = ConfigurationPropertyName
					.of(errors.getName() + "." + DataObjectPropertyName.toDashedForm(field.getField()));
				for (ConfigurationProperty property : given(errors, name)) {
					description.append("      given: ");
					if (!property.getName().equals(name)) {
						description.append(property.getName()).append('=');
					}
					description.append('"').append(property.getValue()).append('"');
					Origin origin = property.getOrigin();
					description.append((origin != null) ? " in %s%n".formatted(origin) : "%n".formatted());
				}
			}
		}
		return new FailureAnalysis(description.toString().stripTrailing(), "Correct the settings above, or remove them to use the "
				+ "defaults. Every modelgate.idempotency property, with its default, is listed in docs/CONFIGURATION.md.", cause);
	}

	/**
	 * The property as it was given (the text, not the converted value) and where; a list written one
	 * element at a time ({@code release-statuses[0]}, as YAML does) is all of its elements.
	 */
	private static List<ConfigurationProperty> given(ValidationErrors errors, ConfigurationPropertyName name) {
		return errors.getBoundProperties()
			.stream()
			.filter((property) -> name.equals(property.getName()) || name.isParentOf(property.getName()))
			.sorted(Comparator.comparing(ConfigurationProperty::getName))
			.toList();
	}

}
