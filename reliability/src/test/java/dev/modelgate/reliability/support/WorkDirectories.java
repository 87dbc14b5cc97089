package dev.modelgate.reliability.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Where the suite keeps things: logs and results under {@code target/reliability} (kept, to read
 * after a run), and data directories of the servers it starts (temporary, deleted when the server
 * is closed).
 */
public final class WorkDirectories {

	private WorkDirectories() {
	}

	/** {@code target/reliability}, or the system property {@code reliability.workDir}. */
	public static Path root() {
		return Paths.get(System.getProperty("reliability.workDir", "target/reliability")).toAbsolutePath();
	}

	/** The log file for one process of one scenario. */
	public static Path log(String scenario, String process) {
		return root().resolve("logs").resolve(scenario).resolve(process + ".log");
	}

	/** A fresh, empty temporary directory; {@link #delete} it when done (or the JVM's exit will). */
	public static Path temporary(String prefix) {
		try {
			Path directory = Files.createTempDirectory("modelgate-" + prefix + "-");
			Reaper.track(directory);
			return directory;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Deletes a directory and everything in it; missing is fine. */
	public static void delete(Path directory) {
		if (directory == null) {
			return;
		}
		Reaper.forget(directory);
		if (!Files.exists(directory)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(directory)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> {
				try {
					Files.deleteIfExists(path);
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			});
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
