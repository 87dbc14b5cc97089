package dev.modelgate.reliability.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

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
