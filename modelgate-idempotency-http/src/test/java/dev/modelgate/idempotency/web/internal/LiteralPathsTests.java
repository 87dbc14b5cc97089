package dev.modelgate.idempotency.web.internal;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LiteralPathsTests {

	private final LiteralPaths paths = LiteralPaths.count(
			List.of(Set.of("/orders"), Set.of("/refunds", "/v1/refunds"), Set.of("/mails"), Set.of("/MAILS"), Set.of()));

	@Test
	void aLiteralPathNoOtherMappingHasIsUnrivalled() {
		assertThat(this.paths.isUnrivalled(Set.of("/orders"), List.of("/orders"))).isTrue();
		assertThat(this.paths.isUnrivalled(Set.of("/refunds", "/v1/refunds"), List.of("/refunds", "/v1/refunds"))).isTrue();
	}

	@Test
	void aPathAnotherMappingHasInAnyCaseIsRivalled() {
		assertThat(this.paths.isUnrivalled(Set.of("/mails"), List.of("/mails"))).isFalse();
	}

	@Test
	void aMappingWithAPatternIsNotLiteral() {
		assertThat(LiteralPaths.isLiteral(Set.of("/orders"), List.of("/orders", "/orders/{id}"))).isFalse();
		assertThat(this.paths.isUnrivalled(Set.of("/orders"), List.of("/orders", "/orders/{id}"))).isFalse();
		assertThat(LiteralPaths.isLiteral(Set.of(), List.of("/orders/{id}"))).isFalse();
		assertThat(LiteralPaths.isLiteral(Set.of("/orders"), List.of("/orders"))).isTrue();
	}

	@Test
	void anEmptyPathIsNeverUnrivalled() {
		LiteralPaths root = LiteralPaths.count(List.of(Set.of("")));
		assertThat(root.isUnrivalled(Set.of(""), List.of(""))).isFalse();
	}

	@Test
	void aPathNotCountedIsNotUnrivalled() {
		assertThat(this.paths.isUnrivalled(Set.of("/unknown"), List.of("/unknown"))).isFalse();
	}

}
