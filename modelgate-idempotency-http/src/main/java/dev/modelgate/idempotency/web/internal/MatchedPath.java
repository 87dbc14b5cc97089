package dev.modelgate.idempotency.web.internal;

import java.nio.charset.StandardCharsets;

import org.springframework.http.server.PathContainer;
import org.springframework.web.util.UriUtils;

import dev.modelgate.idempotency.web.internal.MatchedPath;

/**
 * The request path as Spring MVC matches it, for the fingerprint: {@code /v1/chat/%63ompletions},
 * {@code /v1/chat/completions;jsessionid=1} and {@code /v1;v=2/chat/completions} reach the same
 * handler as {@code /v1/chat/completions}, so they are the same request.
 *
 * <p>Spring MVC's path patterns match each segment's {@link PathContainer.PathSegment#valueToMatch()
 * value to match}: percent-decoded (UTF-8), without its {@code ;} parameters. Each such value is
 * percent-encoded again, as little as a path segment needs, so that the path stays one string in which
 * a decoded {@code /} ({@code %2F}) cannot pass for a separator, and so that a path already written
 * that way (every plain path, {@code /items/caf%C3%A9}) keeps the exact text it always had. Spring MVC
 * leaves {@code .} and empty segments as they are (so {@code /v1/./chat} and {@code //v1} match no
 * literal route), and so does this.
 */
public final class MatchedPath {

	private static final char REPLACEMENT = '\uFFFD';

	private MatchedPath() {
	}

	/**
	 * @param requestUri the request URI as the container gives it, undecoded
	 * @return the path in the form described above
	 */
	public static String of(String requestUri) {
		return isPlain(requestUri) ? requestUri : parsed(requestUri);
	}

	/**
	 * Whether the path is already in the form described above: only separators and characters a path
	 * segment keeps as they are ({@code pchar} without {@code %}, and without {@code ;}, which starts
	 * parameters). Most paths are, and are then kept without being parsed.
	 */
	static boolean isPlain(String requestUri) {
		for (int index = 0; index < requestUri.length(); index++) {
			char c = requestUri.charAt(index);
			boolean plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
					|| "/-._~!$&'()*+,=:@".indexOf(c) >= 0;
			if (!plain) {
				return false;
			}
		}
		return true;
	}

	/** The path parsed as Spring matches it, each segment's value to match encoded again. */
	static String parsed(String requestUri) {
		PathContainer path = PathContainer.parsePath(requestUri);
		StringBuilder matched = new StringBuilder(requestUri.length());
		for (PathContainer.Element element : path.elements()) {
			if (element instanceof PathContainer.PathSegment segment) {
				matched.append(segment(segment));
			}
			else {
				matched.append(element.value());
			}
		}
		return matched.toString();
	}

	/**
	 * Bytes that are not UTF-8 decode to U+FFFD, so {@code %FF} and {@code %FE} would be one value:
	 * such a segment keeps its raw text (without parameters) instead, which the re-encoding of a
	 * decoded value can never produce.
	 */
	private static String segment(PathContainer.PathSegment segment) {
		String decoded = segment.valueToMatch();
		String raw = segment.value();
		if (decoded.indexOf(REPLACEMENT) >= 0 && raw.indexOf(REPLACEMENT) < 0) {
			int parameters = raw.indexOf(';');
			return (parameters >= 0) ? raw.substring(0, parameters) : raw;
		}
		return UriUtils.encodePathSegment(decoded, StandardCharsets.UTF_8);
	}

}
