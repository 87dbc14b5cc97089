package org.springframework.boot.webmvc.test.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.core.annotation.AliasFor;

/**
 * Spring Boot 4's name for Spring Boot 3's {@code @WebMvcTest}, so that the Boot 4 consumer's tests run
 * here as they are written. Only this build's tests see it.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest
public @interface WebMvcTest {

	@AliasFor(annotation = org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest.class)
	Class<?>[] value() default {};

	@AliasFor(annotation = org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest.class)
	String[] properties() default {};

}
