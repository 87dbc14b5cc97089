package dev.modelgate.idempotency.boot3.autoconfigure;

import dev.modelgate.idempotency.autoconfigure.SpringBootLineVerifier;

/**
 * This auto-configuration is the Spring Boot 3 line's: refuses to start on any other (see
 * {@link SpringBootLineVerifier}).
 */
public class SpringBoot3LineVerifier extends SpringBootLineVerifier {

	/** For the Spring Boot 3 line. */
	public SpringBoot3LineVerifier() {
		super(Line.SPRING_BOOT_3);
	}

}
