package dev.modelgate.reliability.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;

/**
 * Writes what a scenario measured to {@code target/reliability/results/<scenario>.md} and to the
 * console; {@code docs/RELIABILITY.md} quotes these files.
 */
public final class Report {

	private Report() {
	}

	public static void write(String scenario, String markdown) {
		String text = "## " + scenario + "\n\n" + markdown.strip() + "\n\n_" + machine() + ", "
				+ OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS) + "_\n";
		System.out.println(text);
		Path file = WorkDirectories.root().resolve("results").resolve(scenario + ".md");
		try {
			Files.createDirectories(file.getParent());
			Files.writeString(file, text, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String machine() {
		return Runtime.getRuntime().availableProcessors() + " CPUs, " + System.getProperty("os.name") + " "
				+ System.getProperty("os.arch") + ", Java " + System.getProperty("java.version");
	}

}
