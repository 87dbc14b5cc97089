package dev.modelgate.reliability.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The server programs the suite runs, found on the {@code PATH} (or where a system property says).
 * A missing one fails the test with a message saying how to install it: a reliability test that
 * did not run proves nothing, so none is skipped.
 */
final class Binaries {

	private Binaries() {
	}

	static String redisServer() {
		return require("reliability.redisServer", "redis-server", "apt-get install redis-server (Redis 7 or later)");
	}

	static String redisCli() {
		return require("reliability.redisCli", "redis-cli", "apt-get install redis-tools (Redis 7 or later)");
	}

	/**
	 * A PostgreSQL program ({@code initdb}, {@code postgres}, {@code pg_isready}, {@code psql}) from the
	 * directory in the system property {@code reliability.postgresBin}, else from {@code pg_config
	 * --bindir}, else from the newest {@code /usr/lib/postgresql/<version>/bin}.
	 */
	static String postgres(String program) {
		Path bin = postgresBin();
		Path command = (bin != null) ? bin.resolve(program) : null;
		if (command == null || !Files.isExecutable(command)) {
			throw new IllegalStateException("The reliability suite needs the PostgreSQL server programs (" + program
					+ " not found" + ((bin != null) ? " in " + bin : "") + "). Install them (apt-get install "
					+ "postgresql, PostgreSQL 13 or later) or point the system property reliability.postgresBin at "
					+ "their directory.");
		}
		return command.toString();
	}

	private static Path postgresBin() {
		String configured = System.getProperty("reliability.postgresBin");
		if (configured != null) {
			return Paths.get(configured);
		}
		try {
			Process process = new ProcessBuilder("pg_config", "--bindir").redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes()).strip();
			if (process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0
					&& Files.isExecutable(Paths.get(output, "postgres"))) {
				return Paths.get(output);
			}
		}
		catch (IOException ex) {
			// No pg_config on the PATH: look where Debian and Ubuntu install the servers.
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		try (Stream<Path> versions = Files.list(Paths.get("/usr/lib/postgresql"))) {
			return versions.map((version) -> version.resolve("bin"))
				.filter((bin) -> Files.isExecutable(bin.resolve("postgres")))
				.max(Comparator.comparing((Path bin) -> versionNumber(bin.getParent().getFileName().toString())))
				.orElse(null);
		}
		catch (IOException ex) {
			return null;
		}
	}

	private static int versionNumber(String name) {
		try {
			return Integer.parseInt(name);
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	static String java() {
		return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
	}

	private static String require(String property, String program, String install) {
		String command = System.getProperty(property, program);
		if (!runs(command)) {
			throw new IllegalStateException("The reliability suite needs '" + program + "' and could not run '" + command
					+ " --version'. Install it (" + install + ") or point the system property " + property
					+ " at it.");
		}
		return command;
	}

	private static boolean runs(String command) {
		Path path = Paths.get(command);
		if (path.isAbsolute() && !Files.isExecutable(path)) {
			return false;
		}
		try {
			Process process = new ProcessBuilder(command, "--version").redirectErrorStream(true).start();
			process.getInputStream().readAllBytes();
			return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
