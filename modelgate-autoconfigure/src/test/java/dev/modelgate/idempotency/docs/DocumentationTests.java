package dev.modelgate.idempotency.docs;

import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the README and the user's guide promise about themselves: the README fits in 12,500
 * characters, every snippet in it is tested by the build (each names, in a {@code <!-- tested: -->}
 * comment, the built file it is taken from), every relative link and anchor resolves, every
 * {@code modelgate.idempotency} property they name exists, and the configuration reference lists
 * every property of the configuration metadata.
 */
class DocumentationTests {

	private static final Path ROOT = repositoryRoot();

	private static final String PREFIX = "modelgate.idempotency.";

	private static final Pattern FENCE = Pattern.compile("(?m)^(<!-- tested: (.*?) -->\\n)?```(\\w*)\\n(.*?)^```",
			Pattern.DOTALL);

	private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");

	private static final Pattern XML_COORDINATES = Pattern
		.compile("<groupId>([^<]+)</groupId>\\s*<artifactId>([^<]+)</artifactId>");

	@Test
	void theReadmeFitsInTwelveAndAHalfThousandCharacters() throws IOException {
		assertThat(read(ROOT.resolve("README.md"))).hasSizeLessThanOrEqualTo(12_500);
	}

	@Test
	void everySnippetInTheReadmeNamesWhereTheBuildTestsIt() throws IOException {
		String readme = read(ROOT.resolve("README.md"));
		Matcher fence = FENCE.matcher(readme);
		List<String> xmlCoordinates = List.of();
		String xmlSnippet = "";
		int snippets = 0;
		while (fence.find()) {
			String language = fence.group(3);
			String snippet = fence.group(4);
			if (language.isEmpty()) {
				continue; // the state machine's picture
			}
			snippets++;
			assertThat(fence.group(2)).as("the <!-- tested: --> comment before the %s snippet%n%s", language, snippet)
				.isNotNull();
			String tested = fence.group(2);
			switch (language) {
				case "xml" -> {
					List<String> coordinates = coordinates(XML_COORDINATES, snippet);
					xmlCoordinates = coordinates;
					xmlSnippet = snippet;
					String sources = sources(tested);
					assertThat(coordinates(XML_COORDINATES, sources)).as("dependencies in %s", tested)
						.containsAll(coordinates);
					assertThat(linesInOrder(xmlLines(snippet), xmlLines(sources)))
						.as("the README's xml snippet, line for line and in order, in %s", tested)
						.isTrue();
					Matcher boot3 = Pattern.compile("<!-- Boot 3\\.5: ([\\w.-]+) -->").matcher(snippet);
					while (boot3.find()) {
						assertThat(sources).as("the snippet's Spring Boot 3.5 alternative, in %s", tested)
							.contains("<artifactId>" + boot3.group(1) + "</artifactId>");
					}
				}
				case "kotlin" -> {
					// No Gradle here can build it (see the marker), so the test says what it checks.
					assertThat(tested).as("the Gradle snippet's marker")
						.isEqualTo("DocumentationTests: the Maven snippet's coordinates and version");
					Matcher gradle = Pattern.compile("\"([\\w.-]+):([\\w.-]+)(:[\\w.-]+)?\"").matcher(snippet);
					List<String> coordinates = new ArrayList<>();
					while (gradle.find()) {
						coordinates.add(gradle.group(1) + ":" + gradle.group(2));
						if (gradle.group(3) != null) {
							assertThat(xmlSnippet).as("the version of %s in the Maven snippet above", gradle.group())
								.containsPattern("<artifactId>" + Pattern.quote(gradle.group(2))
										+ "</artifactId>\\s*<version>" + Pattern.quote(gradle.group(3).substring(1))
										+ "</version>");
							assertThat(snippet).as("a BOM is a platform in Gradle")
								.contains("platform(" + gradle.group() + ")");
						}
					}
					assertThat(coordinates).as("the Gradle snippet declares what the Maven one above does")
						.isNotEmpty()
						.containsExactlyInAnyOrderElementsOf(xmlCoordinates);
				}
				case "java" -> {
					String source = normalized(sources(tested));
					for (String line : snippet.split("\n")) {
						String code = normalized(line.replace("{ ... }", ""));
						assertThat(source).as("line of the README's snippet in %s", tested).contains(code);
					}
				}
				case "properties" -> {
					// The configuration metadata names every property; a file named beside it holds each line.
					List<String> lines = tested.equals("the configuration metadata") ? List.of()
							: List.of(sources(tested).split("\n"));
					for (String line : snippet.split("\n")) {
						if (line.isBlank() || line.startsWith("#")) {
							continue;
						}
						String name = line.substring(0, line.indexOf('=')).trim();
						assertThat(metadataProperties()).as("the metadata of every jar on the class path")
							.contains(name);
						if (!tested.equals("the configuration metadata")) {
							assertThat(lines).as("the README's properties, in %s", tested).contains(line);
						}
					}
				}
				case "bash" -> {
					String sources = sources(tested);
					for (String line : snippet.split("\n")) {
						if (line.startsWith("./mvnw")) {
							String command = line.replaceAll("\\s+#.*", "").trim();
							assertThat(sources).as("the README's command in %s", tested).contains(command);
						}
						else {
							Matcher claim = Pattern.compile("Idempotency-Key|Idempotent-Replayed|/orders|\\b4\\d\\d\\b")
								.matcher(line);
							while (claim.find()) {
								assertThat(sources).as("what the README's request shows, in %s", tested)
									.contains(claim.group());
							}
							// The headers it sends, and their values but the key's (any key does).
							Matcher header = Pattern.compile("-H '([\\w-]+): ([^']*)'").matcher(line);
							while (header.find()) {
								assertThat(sources).as("the README's request's header, in %s", tested)
									.contains(header.group(1));
								if (!header.group(1).equals("Idempotency-Key")) {
									assertThat(sources).as("the README's request's header value, in %s", tested)
										.contains(header.group(2));
								}
							}
						}
					}
				}
				default -> throw new AssertionError("a " + language + " snippet nothing tests:\n" + snippet);
			}
		}
		assertThat(snippets).isGreaterThanOrEqualTo(6);
	}

	@Test
	void everyJavaSnippetOfTheTestingGuidesHelpersIsCodeTheBuildRuns() throws IOException {
		String guide = read(ROOT.resolve("docs/TESTING.md"));
		String helpers = guide.substring(guide.indexOf("## Resetting state between tests"));
		StringBuilder sources = new StringBuilder();
		try (Stream<Path> files = Files.list(ROOT.resolve("modelgate-autoconfigure/src/test/java/dev/modelgate/idempotency/docs"))) {
			for (Path file : files.sorted().toList()) {
				sources.append(read(file)).append('\n');
			}
		}
		String runs = normalized(sources.toString());
		Matcher snippet = Pattern.compile("(?ms)^\\s*```java\\n(.*?)^\\s*```").matcher(helpers);
		int snippets = 0;
		while (snippet.find()) {
			snippets++;
			assertThat(runs).as("docs/TESTING.md's snippet, in dev.modelgate.idempotency.docs' tests")
				.contains(normalized(snippet.group(1)));
		}
		assertThat(snippets).isGreaterThanOrEqualTo(6);
	}

	@Test
	void everyRelativeLinkAndAnchorResolves() throws IOException {
		List<String> broken = new ArrayList<>();
		for (Path document : documents()) {
			String text = withoutCode(read(document));
			Matcher link = LINK.matcher(text);
			while (link.find()) {
				String target = link.group(1);
				if (target.matches("^[a-z]+:.*")) {
					continue;
				}
				int hash = target.indexOf('#');
				String file = (hash < 0) ? target : target.substring(0, hash);
				Path resolved = file.isEmpty() ? document : document.getParent().resolve(file).normalize();
				if (!Files.exists(resolved)) {
					broken.add(ROOT.relativize(document) + ": " + target + " (no such file)");
				}
				else if (hash >= 0 && !anchors(resolved).contains(target.substring(hash + 1))) {
					broken.add(ROOT.relativize(document) + ": " + target + " (no such heading)");
				}
			}
		}
		assertThat(broken).isEmpty();
	}

	@Test
	void everyPropertyTheDocsNameExists() throws IOException {
		Set<String> known = new TreeSet<>(metadataProperties());
		// A property as the README names it anywhere, and as the guide sets it (followed by = or :); the
		// guide also names meters, packages and log keys that begin the same way.
		Pattern anywhere = Pattern.compile("(?<![\\w.{])modelgate\\.idempotency\\.([a-z0-9-]+(?:\\.[a-z0-9\\[\\]<>*-]+)*)");
		Pattern set = Pattern.compile(anywhere.pattern() + "(?=\\s*[=:])");
		List<String> unknown = new ArrayList<>();
		for (Path document : documents()) {
			Pattern property = document.endsWith("README.md") ? anywhere : set;
			Matcher name = property.matcher(read(document));
			while (name.find()) {
				if (!exists(name.group(1), known)) {
					unknown.add(ROOT.relativize(document) + ": " + name.group());
				}
			}
		}
		assertThat(new LinkedHashSet<>(unknown)).isEmpty();
	}

	@Test
	void theConfigurationReferenceListsEveryPropertyOfTheMetadata() throws IOException {
		String reference = read(ROOT.resolve("docs/CONFIGURATION.md"));
		Set<String> listed = new TreeSet<>();
		Matcher row = Pattern.compile("(?m)^\\| (`[^|]+)\\|").matcher(reference);
		while (row.find()) {
			Matcher name = Pattern.compile("`([a-z0-9.\\[\\]<>-]+)`").matcher(row.group(1));
			while (name.find()) {
				listed.add(name.group(1));
			}
		}
		Set<String> documented = new TreeSet<>();
		for (String property : metadataProperties()) {
			if (property.startsWith(PREFIX)) {
				documented.add(property.substring(PREFIX.length()));
			}
		}
		documented.remove("routes");
		documented.remove("listeners");
		for (String route : beanProperties(ModelgateIdempotencyProperties.Route.class)) {
			documented.add("routes[i]." + route);
		}
		for (String listener : beanProperties(ModelgateIdempotencyProperties.Listener.class)) {
			documented.add("listeners.<id>." + listener);
		}
		assertThat(listed).as("the properties docs/CONFIGURATION.md lists").containsAll(documented);
		Set<String> unknown = new TreeSet<>(listed);
		unknown.removeAll(documented);
		assertThat(unknown).as("listed in docs/CONFIGURATION.md, but no such property").isEmpty();
	}

	/**
	 * Each default that the configuration reference and the README's table state, as the first code span
	 * of a row's second cell, is the one the configuration metadata gives (from the properties class's
	 * initial values); a property without one is stated without a code span ("(none)", "unset").
	 */
	@Test
	void everyDefaultTheDocsStateIsTheMetadatas() throws IOException {
		Map<String, String> defaults = metadataDefaults();
		Pattern row = Pattern.compile("(?m)^\\| ((?:`[a-z0-9.-]+`(?:, )?)+) \\| ([^|]*) \\|");
		Pattern name = Pattern.compile("`([a-z0-9.-]+)`");
		List<String> wrong = new ArrayList<>();
		int checked = 0;
		for (Path document : List.of(ROOT.resolve("docs/CONFIGURATION.md"), ROOT.resolve("README.md"))) {
			Matcher rows = row.matcher(read(document));
			while (rows.find()) {
				String cell = rows.group(2).trim();
				String stated = cell.startsWith("`") ? cell.substring(1, cell.indexOf('`', 1)) : null;
				Matcher names = name.matcher(rows.group(1));
				while (names.find()) {
					if (defaults.containsKey(names.group(1))) {
						checked++;
						String actual = defaults.get(names.group(1));
						if (!Objects.equals(stated, actual)) {
							wrong.add(ROOT.relativize(document) + ": " + names.group(1) + " is stated " + cell
									+ ", the metadata says " + actual);
						}
					}
				}
			}
		}
		assertThat(wrong).isEmpty();
		assertThat(checked).as("defaults checked").isGreaterThan(50);
	}

	/** {@return each property of the metadata, without the prefix, with its default as the docs write it, or null} */
	private static Map<String, String> metadataDefaults() throws IOException {
		Map<String, String> defaults = new TreeMap<>();
		ObjectMapper mapper = new ObjectMapper();
		Enumeration<URL> files = DocumentationTests.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json");
		for (URL file : Collections.list(files)) {
			try (InputStream in = file.openStream()) {
				for (JsonNode property : mapper.readTree(in).path("properties")) {
					String name = property.path("name").asString();
					if (name.startsWith(PREFIX)) {
						JsonNode value = property.path("defaultValue");
						List<String> values = new ArrayList<>();
						(value.isArray() ? value : List.of(value)).forEach((element) -> values.add(element.asString()));
						defaults.put(name.substring(PREFIX.length()),
								(value.isMissingNode() || value.isNull()) ? null : String.join(",", values));
					}
				}
			}
		}
		return defaults;
	}

	private static boolean exists(String name, Set<String> known) {
		String trimmed = name.replaceAll("[.]+$", "");
		if (known.contains(PREFIX + trimmed)) {
			return true;
		}
		String prefix = PREFIX + trimmed + ".";
		if (known.stream().anyMatch((property) -> property.startsWith(prefix))) {
			return true; // a group, such as modelgate.idempotency.redis
		}
		Matcher route = Pattern.compile("routes\\[(?:\\d+|i)\\](?:\\.([a-z-]+))?").matcher(trimmed);
		if (route.matches()) {
			return route.group(1) == null || beanProperties(ModelgateIdempotencyProperties.Route.class)
				.contains(route.group(1));
		}
		if (trimmed.matches("encryption\\.keys\\.[A-Za-z0-9_-]+")) {
			return true; // a key by its id
		}
		Matcher listener = Pattern.compile("listeners\\.[^.]+(?:\\.([a-z-]+))?").matcher(trimmed);
		if (listener.matches()) {
			return listener.group(1) == null || beanProperties(ModelgateIdempotencyProperties.Listener.class)
				.contains(listener.group(1));
		}
		return false;
	}

	private static Set<String> beanProperties(Class<?> type) {
		Set<String> names = new TreeSet<>();
		try {
			for (PropertyDescriptor descriptor : Introspector.getBeanInfo(type, Object.class)
				.getPropertyDescriptors()) {
				if (descriptor.getWriteMethod() != null
						|| java.util.Collection.class.isAssignableFrom(descriptor.getPropertyType())) {
					names.add(descriptor.getName().replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT));
				}
			}
		}
		catch (java.beans.IntrospectionException ex) {
			throw new IllegalStateException(ex);
		}
		return names;
	}

	private static Set<String> metadataProperties() throws IOException {
		Set<String> names = new TreeSet<>();
		ObjectMapper mapper = new ObjectMapper();
		Enumeration<URL> files = DocumentationTests.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json");
		for (URL file : Collections.list(files)) {
			try (InputStream in = file.openStream()) {
				JsonNode properties = mapper.readTree(in).path("properties");
				for (JsonNode property : properties) {
					names.add(property.path("name").asString());
				}
			}
		}
		return names;
	}

	/** The anchors GitHub gives a Markdown file's headings. */
	private static Set<String> anchors(Path document) throws IOException {
		Set<String> anchors = new LinkedHashSet<>();
		if (!document.toString().endsWith(".md")) {
			return anchors;
		}
		for (String line : withoutCode(read(document)).split("\n")) {
			if (line.matches("^#{1,6} .*")) {
				String slug = line.replaceFirst("^#+ ", "")
					.trim()
					.toLowerCase(Locale.ROOT)
					.replaceAll("[^\\p{L}\\p{N} _-]", "")
					.replace(' ', '-');
				String anchor = slug;
				for (int i = 1; !anchors.add(anchor); i++) {
					anchor = slug + "-" + i;
				}
			}
		}
		return anchors;
	}

	private static List<Path> documents() throws IOException {
		List<Path> documents = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CONTRIBUTING.md"),
				ROOT.resolve("CHANGELOG.md"), ROOT.resolve("sample-app/README.md"), ROOT.resolve("dev/README.md")));
		try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
			docs.filter((path) -> path.toString().endsWith(".md")).sorted().forEach(documents::add);
		}
		return documents;
	}

	private static String sources(String tested) throws IOException {
		StringBuilder sources = new StringBuilder();
		for (String path : tested.split("\\s+")) {
			if (path.contains("/") || path.contains(".")) {
				Path file = ROOT.resolve(path);
				if (Files.exists(file)) {
					sources.append(read(file)).append('\n');
				}
			}
		}
		assertThat(sources).as("the files named in <!-- tested: %s -->", tested).isNotEmpty();
		return sources.toString();
	}

	/** The lines of an XML text, without comments, leading and trailing white space, or blank lines. */
	private static List<String> xmlLines(String xml) {
		List<String> lines = new ArrayList<>();
		for (String line : xml.replaceAll("(?s)<!--.*?-->", "").split("\n")) {
			if (!line.isBlank()) {
				lines.add(line.trim());
			}
		}
		return lines;
	}

	/** Whether {@code lines} are lines of {@code text}, in their order (others may come between). */
	private static boolean linesInOrder(List<String> lines, List<String> text) {
		int next = 0;
		for (String line : text) {
			if (next < lines.size() && line.equals(lines.get(next))) {
				next++;
			}
		}
		return next == lines.size();
	}

	private static List<String> coordinates(Pattern pattern, String text) {
		List<String> coordinates = new ArrayList<>();
		Matcher matcher = pattern.matcher(text);
		while (matcher.find()) {
			coordinates.add(matcher.group(1).trim() + ":" + matcher.group(2).trim());
		}
		return coordinates;
	}

	private static String normalized(String code) {
		return code.replaceAll("\\s+", " ").trim();
	}

	private static String withoutCode(String markdown) {
		return markdown.replaceAll("(?ms)^```.*?^```", "").replaceAll("`[^`\\n]*`", "``");
	}

	private static String read(Path file) throws IOException {
		return Files.readString(file);
	}

	private static Path repositoryRoot() {
		Path directory = Path.of("").toAbsolutePath();
		while (directory != null && !Files.exists(directory.resolve(".ci/run"))) {
			directory = directory.getParent();
		}
		if (directory == null) {
			throw new IllegalStateException("not inside the repository: " + Path.of("").toAbsolutePath());
		}
		return directory;
	}

}
