package dev.modelgate.idempotency.architecture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each class of the library does one job: none of its main classes is over 400 lines, the properties
 * class aside (one field and accessor pair per documented property). The test kit's contract suites
 * are tests shipped as main code and are not counted.
 */
class ClassSizeTests {

	private static final int MAX_LINES = 400;

	private static final List<String> EXEMPT = List.of("ModelgateIdempotencyProperties.java");

	@Test
	void noMainClassOfTheLibraryIsOver400Lines() throws IOException {
		Map<Path, Long> tooLong = new TreeMap<>();
		int read = 0;
		try (Stream<Path> modules = Files.list(Path.of(".."))) {
			for (Path module : modules.filter(ClassSizeTests::isLibraryModule).toList()) {
				try (Stream<Path> sources = Files.walk(module.resolve("src/main/java"))) {
					for (Path source : sources.filter((path) -> path.toString().endsWith(".java")).toList()) {
						long lines = Files.readAllLines(source).size();
						read++;
						if (lines > MAX_LINES && !EXEMPT.contains(source.getFileName().toString())) {
							tooLong.put(source.normalize(), lines);
						}
					}
				}
			}
		}
		assertThat(read).as("main classes read").isGreaterThan(200);
		assertThat(tooLong).isEmpty();
	}

	private static boolean isLibraryModule(Path module) {
		String name = module.getFileName().toString();
		return name.startsWith("modelgate-") && !name.equals("modelgate-idempotency-test")
				&& Files.isDirectory(module.resolve("src/main/java"));
	}

}
