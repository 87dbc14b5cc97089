package dev.modelgate.idempotency.core;

import dev.modelgate.idempotency.core.internal.CanonicalBody;
import dev.modelgate.idempotency.core.internal.BlockingSettlement;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The core package holds the whole idea (key, scope, fingerprint, state machine, store SPI) with no
 * Spring, servlet, Redis or JDBC in it, so that the adapters stay around it and never inside it.
 */
class CoreArchitectureTests {

	private static final Path CORE_SOURCES = Path.of("src/main/java/dev/modelgate/idempotency/core");

	private static final List<String> FORBIDDEN_PREFIXES = List.of("org.springframework", "jakarta.servlet",
			"io.lettuce", "redis.", "java.sql", "javax.sql", "tools.jackson", "com.fasterxml.jackson");

	private static final Pattern IMPORT = Pattern.compile("^\\s*import\\s+(?:static\\s+)?([\\w.*]+)\\s*;",
			Pattern.MULTILINE);

	@Test
	void coreImportsNeitherSpringNorServletNorRedisNorJdbc() throws IOException {
		List<Path> sources = coreSources();
		assertThat(sources).as("core sources under %s", CORE_SOURCES.toAbsolutePath())
			.extracting((path) -> path.getFileName().toString())
			.contains("IdempotencyKey.java", "IdempotencyStore.java", "CanonicalBody.java", "BlockingSettlement.java");
		List<String> violations = new ArrayList<>();
		for (Path source : sources) {
			for (String imported : imports(source)) {
				if (FORBIDDEN_PREFIXES.stream().anyMatch(imported::startsWith)) {
					violations.add(source.getFileName() + " imports " + imported);
				}
			}
		}
		assertThat(violations).isEmpty();
	}

	@Test
	void coreNeverNamesThoseTypesFullyQualifiedEither() throws IOException {
		List<String> violations = new ArrayList<>();
		for (Path source : coreSources()) {
			String code = withoutComments(Files.readString(source, StandardCharsets.UTF_8));
			for (String prefix : FORBIDDEN_PREFIXES) {
				if (Pattern.compile("(?<![\\w.])" + Pattern.quote(prefix)).matcher(code).find()) {
					violations.add(source.getFileName() + " names " + prefix);
				}
			}
		}
		assertThat(violations).isEmpty();
	}

	@Test
	void importScanSeesStaticAndWildcardImports() {
		String source = """
				package x;

				import java.util.List;
				import static org.springframework.util.Assert.notNull;
				import io.lettuce.core.*;
				""";
		assertThat(imports(source)).containsExactly("java.util.List", "org.springframework.util.Assert.notNull",
				"io.lettuce.core.*");
	}

	private static List<Path> coreSources() throws IOException {
		try (Stream<Path> files = Files.walk(CORE_SOURCES)) {
			return files.filter((path) -> path.toString().endsWith(".java")).sorted().toList();
		}
	}

	private static List<String> imports(Path source) {
		try {
			return imports(Files.readString(source, StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot read " + source, ex);
		}
	}

	private static String withoutComments(String source) {
		return source.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "");
	}

	private static List<String> imports(String source) {
		List<String> imports = new ArrayList<>();
		Matcher matcher = IMPORT.matcher(source);
		while (matcher.find()) {
			imports.add(matcher.group(1));
		}
		return imports;
	}

}
