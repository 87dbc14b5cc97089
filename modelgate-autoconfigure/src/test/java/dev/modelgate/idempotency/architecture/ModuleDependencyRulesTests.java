package dev.modelgate.idempotency.architecture;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.modelgate.idempotency.actuate.IdempotencyRecords;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyListenersAutoConfiguration;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.members;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The arrows between the modules point one way: the core knows no Spring, servlet, store client or
 * Jackson; a store knows no web layer; the web layer knows no store; what both Spring Boot lines share
 * without Boot knows no Spring Boot. Checked on the compiled classes of the published jars, as every
 * application's class path sees them.
 */
class ModuleDependencyRulesTests {

	private static JavaClasses classes;

	@BeforeAll
	static void importLibraryClasses() {
		classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TEST_FIXTURES)
			.importPackages("dev.modelgate.idempotency");
	}

	@Test
	void everyModuleIsImported() {
		assertThat(classes.containPackage("dev.modelgate.idempotency.core")).isTrue();
		assertThat(classes.containPackage("dev.modelgate.idempotency.redis")).isTrue();
		assertThat(classes.containPackage("dev.modelgate.idempotency.jdbc")).isTrue();
		assertThat(classes.containPackage("dev.modelgate.idempotency.web")).isTrue();
	}

	@Test
	void coreUsesNeitherSpringNorServletNorStoreClientsNorJackson() {
		noClasses().that()
			.resideInAnyPackage("dev.modelgate.idempotency", "dev.modelgate.idempotency.core..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springframework..", "jakarta.servlet..", "io.lettuce..", "redis.clients..",
					"java.sql..", "javax.sql..", "tools.jackson..", "com.fasterxml.jackson..")
			.check(classes);
	}

	@Test
	void coreUsesNoAdapter() {
		noClasses().that()
			.resideInAnyPackage("dev.modelgate.idempotency", "dev.modelgate.idempotency.core..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.modelgate.idempotency.redis..", "dev.modelgate.idempotency.jdbc..",
					"dev.modelgate.idempotency.web..", "dev.modelgate.idempotency.autoconfigure..",
					"dev.modelgate.idempotency.actuate..", "dev.modelgate.idempotency.micrometer..",
					"dev.modelgate.idempotency.operation..", "dev.modelgate.idempotency.openapi..",
					"dev.modelgate.idempotency.outbox..")
			.check(classes);
	}

	@Test
	void storesUseNoWebLayerAndNotEachOther() {
		noClasses().that()
			.resideInAPackage("dev.modelgate.idempotency.redis..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("jakarta.servlet..", "org.springframework.web..", "dev.modelgate.idempotency.web..",
					"dev.modelgate.idempotency.jdbc..", "java.sql..", "org.springframework.jdbc..",
					"org.springframework.boot..")
			.check(classes);
		noClasses().that()
			.resideInAPackage("dev.modelgate.idempotency.jdbc..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("jakarta.servlet..", "org.springframework.web..", "dev.modelgate.idempotency.web..",
					"dev.modelgate.idempotency.redis..", "org.springframework.data.redis..", "io.lettuce..",
					"org.springframework.boot..")
			.check(classes);
	}

	@Test
	void webLayerUsesNoStore() {
		noClasses().that()
			.resideInAPackage("dev.modelgate.idempotency.web..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.modelgate.idempotency.redis..", "dev.modelgate.idempotency.jdbc..",
					"org.springframework.data.redis..", "io.lettuce..", "org.springframework.jdbc..", "java.sql..",
					"org.springframework.boot..")
			.check(classes);
	}

	@Test
	void servletAdapterNeverUsesTheReactiveOne() {
		noClasses().that()
			.resideInAPackage("dev.modelgate.idempotency.web.servlet..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.modelgate.idempotency.web.reactive..", "reactor..",
					"org.springframework.web.reactive..", "org.springframework.web.server..",
					"org.springframework.http.server.reactive..")
			.check(classes);
	}

	@Test
	void reactiveAdapterNeverUsesTheServletOne() {
		noClasses().that()
			.resideInAPackage("dev.modelgate.idempotency.web.reactive..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.modelgate.idempotency.web.servlet..", "jakarta.servlet..",
					"org.springframework.web.servlet..")
			.check(classes);
	}

	/**
	 * The HTTP decision is written once, for every stack: the shared module knows neither the servlet
	 * API nor Reactor, nor either adapter.
	 */
	@Test
	void httpDecisionKnowsNeitherStack() {
		noClasses().that()
			.resideInAPackage("dev.modelgate.idempotency.web")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.modelgate.idempotency.web.servlet..", "dev.modelgate.idempotency.web.reactive..",
					"jakarta.servlet..", "reactor..", "org.springframework.web.servlet..",
					"org.springframework.web.reactive..", "org.springframework.web.server..")
			.check(classes);
	}

	@Test
	void springModuleUsesNoSpringBootAndNoJackson() throws Exception {
		JavaClasses spring = importRoot(IdempotencyRecords.class);
		assertThat(spring).isNotEmpty();
		noClasses().should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springframework.boot..", "tools.jackson..", "com.fasterxml.jackson..")
			.check(spring);
	}

	/** The Actuator endpoint, the OpenAPI description and the metrics serve either web stack alike. */
	@Test
	void operationsSupportUsesNeitherWebStack() {
		noClasses().that()
			.resideInAnyPackage("dev.modelgate.idempotency.actuate..", "dev.modelgate.idempotency.openapi..",
					"dev.modelgate.idempotency.micrometer..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.modelgate.idempotency.web.servlet..", "dev.modelgate.idempotency.web.reactive..")
			.check(classes);
	}

	/**
	 * Listener support knows neither Spring Boot, a store nor the web layer; each broker's package knows
	 * only its broker, and the shared package neither.
	 */
	@Test
	void messagingKnowsNoStoreNoWebLayerAndEachBrokerOnlyItsOwn() {
		assertThat(classes.containPackage("dev.modelgate.idempotency.messaging")).isTrue();
		noClasses().that()
			.resideInAPackage("dev.modelgate.idempotency.messaging..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springframework.boot..", "dev.modelgate.idempotency.redis..",
					"dev.modelgate.idempotency.jdbc..", "dev.modelgate.idempotency.web..")
			.check(classes);
		noClasses().that()
			.resideInAPackage("dev.modelgate.idempotency.messaging")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springframework.kafka..", "org.apache.kafka..", "org.springframework.amqp..",
					"com.rabbitmq..")
			.check(classes);
		noClasses().that()
			.resideInAPackage("dev.modelgate.idempotency.messaging.kafka..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springframework.amqp..", "com.rabbitmq..")
			.check(classes);
		noClasses().that()
			.resideInAPackage("dev.modelgate.idempotency.messaging.amqp..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springframework.kafka..", "org.apache.kafka..")
			.check(classes);
	}

	/**
	 * Agent support knows neither Spring Boot, a store, the web layer nor a broker: it works on the
	 * template and Spring AI's tool calling only. Nor Jackson: Spring AI 2 brings Jackson 3 and Spring AI 1
	 * Jackson 2, and the one jar runs on both.
	 */
	@Test
	void springAiKnowsNoSpringBootNoStoreNoWebLayer() {
		assertThat(classes.containPackage("dev.modelgate.idempotency.ai")).isTrue();
		noClasses().that()
			.resideInAPackage("dev.modelgate.idempotency.ai..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springframework.boot..", "dev.modelgate.idempotency.redis..",
					"dev.modelgate.idempotency.jdbc..", "dev.modelgate.idempotency.web..",
					"dev.modelgate.idempotency.messaging..", "org.springframework.kafka..", "org.springframework.amqp..",
					"tools.jackson..", "com.fasterxml.jackson..")
			.check(classes);
	}

	/**
	 * The outbox knows neither Spring Boot, a store, the web layer nor a broker: it works on whatever
	 * event publication registry and transaction the application has, through the operation interceptor.
	 */
	@Test
	void outboxKnowsNoSpringBootNoStoreNoWebLayerAndNoBroker() {
		assertThat(classes.containPackage("dev.modelgate.idempotency.outbox")).isTrue();
		noClasses().that()
			.resideInAPackage("dev.modelgate.idempotency.outbox..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springframework.boot..", "dev.modelgate.idempotency.redis..",
					"dev.modelgate.idempotency.jdbc..", "dev.modelgate.idempotency.web..",
					"dev.modelgate.idempotency.messaging..", "org.springframework.kafka..", "org.springframework.amqp..",
					"tools.jackson..", "com.fasterxml.jackson..")
			.check(classes);
	}

	/**
	 * The shared auto-configuration runs on both Spring Boot lines, so it names no class that only one line
	 * has: the Kafka and RabbitMQ auto-configurations moved between 3.5 and 4.0 and are named as strings.
	 */
	@Test
	void sharedAutoConfigurationNamesNoBrokerAutoConfigurationOfOneLine() throws Exception {
		JavaClasses common = importRoot(ModelgateIdempotencyListenersAutoConfiguration.class);
		assertThat(common).isNotEmpty();
		noClasses().should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springframework.boot.kafka..", "org.springframework.boot.amqp..",
					"org.springframework.boot.autoconfigure.kafka..", "org.springframework.boot.autoconfigure.amqp..")
			.check(common);
	}

	/**
	 * What an application may call names no type of an {@code internal} package: those packages hold
	 * what the modules share among themselves, which may change in any release.
	 */
	@Test
	void noPublicSignatureNamesAnInternalType() {
		ArchCondition<JavaMember> nameNoInternalType = new ArchCondition<>("name no type of an internal package") {
			@Override
			public void check(JavaMember member, ConditionEvents events) {
				if (!member.getModifiers().contains(JavaModifier.PUBLIC)
						&& !(member.getModifiers().contains(JavaModifier.PROTECTED)
								&& !member.getOwner().getModifiers().contains(JavaModifier.FINAL))) {
					return;
				}
				Set<JavaClass> named = new HashSet<>();
				if (member instanceof JavaField field) {
					named.addAll(field.getType().getAllInvolvedRawTypes());
				}
				if (member instanceof JavaCodeUnit code) {
					named.addAll(code.getReturnType().getAllInvolvedRawTypes());
					code.getParameterTypes().forEach((type) -> named.addAll(type.getAllInvolvedRawTypes()));
				}
				named.stream()
					.filter((type) -> type.getPackageName().contains(".internal"))
					.forEach((type) -> events.add(SimpleConditionEvent.violated(member,
							member.getFullName() + " names " + type.getName())));
			}
		};
		members().that()
			.areDeclaredInClassesThat(publicInEveryEnclosingClass())
			.and()
			.areDeclaredInClassesThat()
			.resideOutsideOfPackage("..internal..")
			.should(nameNoInternalType)
			.check(classes);
	}

	private static DescribedPredicate<JavaClass> publicInEveryEnclosingClass() {
		return DescribedPredicate.describe("are public, as is every class enclosing them", (javaClass) -> {
			for (JavaClass type = javaClass; type != null; type = type.getEnclosingClass().orElse(null)) {
				if (!type.getModifiers().contains(JavaModifier.PUBLIC)) {
					return false;
				}
			}
			return true;
		});
	}

	/** A package split over two jars would make the jars unusable as modules, and the code hard to find. */
	@Test
	void everyPackageIsInOneJar() {
		Map<String, Set<String>> roots = new TreeMap<>();
		for (JavaClass javaClass : classes) {
			javaClass.getSource().ifPresent((source) -> {
				String uri = source.getUri().toString();
				String root = uri.substring(0, uri.length() - (javaClass.getName().replace('.', '/') + ".class").length());
				roots.computeIfAbsent(javaClass.getPackageName(), (name) -> new TreeSet<>()).add(root);
			});
		}
		assertThat(roots).allSatisfy((name, where) -> assertThat(where).as(name).hasSize(1));
	}

	/** The classes of the jar or directory that holds {@code type}. */
	private static JavaClasses importRoot(Class<?> type) throws URISyntaxException, IOException {
		Path root = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
		ClassFileImporter importer = new ClassFileImporter();
		if (Files.isDirectory(root)) {
			return importer.importPath(root);
		}
		try (JarFile jar = new JarFile(root.toFile())) {
			return importer.importJar(jar);
		}
	}

}
