package dev.modelgate.idempotency.web.internal;

import java.util.Collection;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.modelgate.idempotency.web.internal.LiteralPaths;

/**
 * The literal paths of one handler mapping's request mappings, counted, for the adapters' handler
 * resolvers: a mapping whose paths are all literal and used by no other mapping of its handler mapping
 * is picked by Spring MVC and WebFlux for any request its conditions match (a literal path is the most
 * specific there is), so a resolver can answer for it without the full lookup. Paths are counted
 * regardless of case, so that a mapping that matches paths regardless of case is never taken for
 * unrivalled.
 */
public final class LiteralPaths {

	private final Map<String, Integer> uses;

	private LiteralPaths(Map<String, Integer> uses) {
		this.uses = uses;
	}

	/**
	 * @param directPaths each request mapping's literal paths ({@code RequestMappingInfo.getDirectPaths()})
	 * @return the paths, counted
	 */
	public static LiteralPaths count(Collection<? extends Set<String>> directPaths) {
		Map<String, Integer> uses = new HashMap<>();
		for (Set<String> paths : directPaths) {
			for (String path : paths) {
				uses.merge(path.toLowerCase(Locale.ROOT), 1, Integer::sum);
			}
		}
		return new LiteralPaths(uses);
	}

	/**
	 * Whether a mapping's paths are all literal: every pattern is one of its literal paths.
	 * @param directPaths the mapping's literal paths
	 * @param patterns the mapping's patterns, as written
	 * @return {@code true} when it has paths and none is a pattern (no variables or wildcards)
	 */
	public static boolean isLiteral(Set<String> directPaths, Collection<String> patterns) {
		return !directPaths.isEmpty() && patterns.size() == directPaths.size() && directPaths.containsAll(patterns);
	}

	/**
	 * Whether a mapping of this handler mapping wins whenever its conditions match: its paths are all
	 * literal, none is empty, and no other mapping has any of them.
	 * @param directPaths the mapping's literal paths
	 * @param patterns the mapping's patterns, as written
	 * @return {@code true} when nothing else in its handler mapping can be picked for its paths
	 */
	public boolean isUnrivalled(Set<String> directPaths, Collection<String> patterns) {
		if (!isLiteral(directPaths, patterns)) {
			return false;
		}
		for (String path : directPaths) {
			if (path.isEmpty() || this.uses.getOrDefault(path.toLowerCase(Locale.ROOT), 0) != 1) {
				return false;
			}
		}
		return true;
	}

}
