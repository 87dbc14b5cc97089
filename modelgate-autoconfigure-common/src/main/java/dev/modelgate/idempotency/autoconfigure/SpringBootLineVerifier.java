package dev.modelgate.idempotency.autoconfigure;

import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringBootVersion;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;

/**
 * Fails start-up, before any bean is created, when the application runs on a Spring Boot line that
 * this auto-configuration was not built for, and names the artifact that fits. On the wrong line the
 * auto-configuration would fail later and say nothing useful: it orders itself after Spring Boot
 * auto-configurations by class names that do not exist there (so the store is not found), and it
 * uses the other line's health and Jackson APIs.
 *
 * <p>Each line's auto-configuration registers a subclass that says which line it is built for.
 */
public abstract class SpringBootLineVerifier
		implements ApplicationContextInitializer<ConfigurableApplicationContext>, Ordered {

	private static final Pattern MAJOR_MINOR = Pattern.compile("(\\d+)\\.(\\d+).*");

	private final Line builtFor;

	protected SpringBootLineVerifier(Line builtFor) {
		this.builtFor = builtFor;
	}

	@Override
	public void initialize(ConfigurableApplicationContext context) {
		verify(this.builtFor, SpringBootVersion.getVersion());
	}

	/** First, so that nothing else runs on the wrong line. */
	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	/**
	 * @param builtFor the line of the auto-configuration on the class path
	 * @param version the Spring Boot version the application runs on, {@code null} when unknown
	 * @throws WrongSpringBootLineException when the version is not one of the line's
	 */
	static void verify(Line builtFor, @Nullable String version) {
		Matcher matcher = (version != null) ? MAJOR_MINOR.matcher(version) : null;
		if (matcher == null || !matcher.matches()) {
			return;
		}
		int major = Integer.parseInt(matcher.group(1));
		int minor = Integer.parseInt(matcher.group(2));
		if (major == builtFor.major && minor >= builtFor.minimumMinor) {
			return;
		}
		Line fitting = Line.forMajor(major);
		if (fitting == null && builtFor == Line.newest() && major > builtFor.major) {
			// A Spring Boot newer than any line: the newest line may run on it, so let it try.
			return;
		}
		throw new WrongSpringBootLineException(version, builtFor, (fitting != builtFor) ? fitting : null);
	}

	/** The Spring Boot lines this library is built for, each with its own starter. */
	public enum Line {

		/** Spring Boot 3.5 and later 3.x: Spring Framework 6.2, Jackson 2. */
		SPRING_BOOT_3(3, 5, "modelgate-spring-boot3-starter"),

		/** Spring Boot 4.0 and later 4.x: Spring Framework 7, Jackson 3. */
		SPRING_BOOT_4(4, 0, "modelgate-spring-boot-starter");

		private final int major;

		private final int minimumMinor;

		private final String starter;

		Line(int major, int minimumMinor, String starter) {
			this.major = major;
			this.minimumMinor = minimumMinor;
			this.starter = starter;
		}

		/** The Spring Boot major version of the line. */
		public int major() {
			return this.major;
		}

		/** The oldest Spring Boot version of the line, such as {@code 3.5}. */
		public String minimumVersion() {
			return this.major + "." + this.minimumMinor;
		}

		/** The starter's artifact id (group {@code dev.modelgate}). */
		public String starter() {
			return this.starter;
		}

		static @Nullable Line forMajor(int major) {
			return Arrays.stream(values()).filter((line) -> line.major == major).findFirst().orElse(null);
		}

		static Line newest() {
			return values()[values().length - 1];
		}

	}

}
