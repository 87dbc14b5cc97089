package dev.modelgate.idempotency.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.context.annotation.ImportSelector;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Imports what the Spring Boot line's module gives a shared configuration: the configuration classes
 * listed in {@code META-INF/spring/<the selector's class name>.imports}, in the format of Spring
 * Boot's {@code AutoConfiguration.imports}. The beans that differ between the lines (they write JSON
 * with Jackson 3 on Spring Boot 4, Jackson 2 on 3.5) are thus imported where they were always
 * imported, with the importing configuration's conditions, and an application or test that names
 * {@link ModelgateIdempotencyAutoConfiguration} alone still gets them.
 */
abstract class LineImports implements ImportSelector, BeanClassLoaderAware {

	private @Nullable ClassLoader classLoader;

	@Override
	public void setBeanClassLoader(ClassLoader classLoader) {
		this.classLoader = classLoader;
	}

	@Override
	public String[] selectImports(AnnotationMetadata importingClassMetadata) {
		return ImportCandidates.load(getClass(), this.classLoader).getCandidates().toArray(String[]::new);
	}

}
