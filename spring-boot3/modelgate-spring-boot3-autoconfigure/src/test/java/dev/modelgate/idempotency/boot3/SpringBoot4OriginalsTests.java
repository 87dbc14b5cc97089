package dev.modelgate.idempotency.boot3;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the Spring Boot 3 line's variants in step with the Spring Boot 4 files they replace. Every other source of
 * the Boot 4 auto-configuration is compiled here as it is, so it cannot drift; a variant can. When one of these
 * originals changes, this test fails until the change is brought to its variant and the original's new hash is
 * written here.
 */
class SpringBoot4OriginalsTests {

	/** The repository's root, from this module's directory (where the build runs its tests). */
	private static final Path ROOT = Paths.get("../..");

	/** Each Boot 4 original (from the root) and the first 16 hex digits of its SHA-256 when last brought in line. */
	private static final Map<String, String> ORIGINALS = Map.ofEntries(
			original("actuate/IdempotencyStoreHealthIndicator.java", "ab672ddc345d07e8"),
			original("autoconfigure/ModelgateIdempotencyHealthContributorAutoConfiguration.java", "731b4c87c777f33c"),
			original("autoconfigure/ProblemRendererConfiguration.java", "ebe32f0ac32b64ad"),
			original("autoconfigure/OperationJsonConfiguration.java", "53640e353787bd4b"),
			original("operation/JacksonOperationJson.java", "98f3dbbe4704ac59"),
			original("operation/JsonResultCodec.java", "c7da0929e2a8e5c5"),
			Map.entry("modelgate-autoconfigure/src/main/resources/META-INF/spring.factories", "71684624b7b8437f"),
			Map.entry("modelgate-autoconfigure/src/main/resources/META-INF/spring/"
					+ "org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureWebMvc.imports",
					"23d4b2d578a82db0"),
			Map.entry("modelgate-autoconfigure/src/test/java/dev/modelgate/idempotency/web/testapp/TestApplication.java",
					"6684460fb8e9417d"));

	@Test
	void variantsFollowTheCurrentSpringBoot4Originals() throws IOException {
		Map<String, String> changed = new TreeMap<>();
		for (Map.Entry<String, String> original : ORIGINALS.entrySet()) {
			String hash = hash(ROOT.resolve(original.getKey()));
			if (!hash.equals(original.getValue())) {
				changed.put(original.getKey(), hash);
			}
		}
		assertThat(changed)
			.as("Spring Boot 4 originals changed since their Spring Boot 3 variants were brought in line "
					+ "(file=new hash): port each change to the variant under spring-boot3/, then record the hash here")
			.isEmpty();
	}

	private static Map.Entry<String, String> original(String path, String hash) {
		return Map.entry("modelgate-autoconfigure/src/main/java/dev/modelgate/idempotency/" + path, hash);
	}

	private static String hash(Path file) throws IOException {
		assertThat(file).as("Spring Boot 4 original").exists();
		String text = Files.readString(file, StandardCharsets.UTF_8).replace("\r\n", "\n");
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(digest).substring(0, 16);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
