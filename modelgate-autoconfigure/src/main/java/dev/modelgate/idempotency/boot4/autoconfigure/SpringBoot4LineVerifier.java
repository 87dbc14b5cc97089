package dev.modelgate.idempotency.boot4.autoconfigure;

import dev.modelgate.idempotency.autoconfigure.SpringBootLineVerifier;

/**
 * This auto-configuration is the Spring Boot 4 line's: refuses to start on any other (see
 * {@link SpringBootLineVerifier}).
 */
public class SpringBoot4LineVerifier extends SpringBootLineVerifier {

	/** For the Spring Boot 4 line. */
	public SpringBoot4LineVerifier() {
		super(Line.SPRING_BOOT_4);
	}

}
